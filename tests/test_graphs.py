from __future__ import annotations

import re

import matplotlib.pyplot as plt
import pytest
import torch
import torch.nn.functional as F
from matplotlib.colors import to_rgb
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch

from tutorial_utils.colours import PALETTE
from tutorial_utils.graphs import (
    AutogradGraph,
    GraphNode,
    autograd_graph,
    draw_graph,
)


def logistic() -> dict[str, torch.Tensor]:
    """The logistic-regression example of the autograd page."""
    x1, y = torch.tensor([1.1]), torch.tensor([1.0])
    w1 = torch.tensor([2.2], requires_grad=True)
    b = torch.tensor([0.0], requires_grad=True)
    z = x1 * w1 + b
    a = torch.sigmoid(z)
    loss = F.binary_cross_entropy(a, y)
    return {"x1": x1, "y": y, "w1": w1, "b": b, "z": z, "a": a, "loss": loss}


def test_logistic_graph_nodes_and_edges() -> None:
    tensors = logistic()
    graph = autograd_graph(tensors["loss"], tensors)
    assert [node.name for node in graph.nodes] == [
        "BinaryCrossEntropyBackward0 (loss)",
        "SigmoidBackward0 (a)",
        "AddBackward0 (z)",
        "MulBackward0",
        "AccumulateGrad (b)",
        "AccumulateGrad (w1)",
    ]
    assert [node.kind for node in graph.nodes] == ["operation"] * 4 + ["leaf"] * 2
    assert [node.depth for node in graph.nodes] == [0, 1, 2, 3, 3, 4]
    assert graph.edges == ((1, 0), (2, 1), (3, 2), (4, 2), (5, 3))
    assert [node.index for node in graph.nodes] == list(range(6))
    assert [n.name for n in graph.inputs_of(2)] == [
        "MulBackward0",
        "AccumulateGrad (b)",
    ]


def test_walk_is_deterministic_and_has_no_addresses() -> None:
    first = str(autograd_graph(logistic()["loss"]))
    second = str(autograd_graph(logistic()["loss"]))
    assert first == second
    assert not re.search(r"0x[0-9a-f]+|object at", first)
    assert "AccumulateGrad (shape (1,))" in first


def test_constants_are_not_nodes_and_unused_names_are_ignored() -> None:
    tensors = logistic()
    unrelated = torch.zeros(1, requires_grad=True)
    graph = autograd_graph(tensors["loss"], {**tensors, "unrelated": unrelated})
    names = " ".join(node.name for node in graph.nodes)
    assert "x1" not in names
    assert "(y)" not in names
    assert "unrelated" not in names


def test_input_used_twice_gives_one_edge() -> None:
    w = torch.ones(2, requires_grad=True)
    graph = autograd_graph(w * w, {"w": w})
    assert [node.name for node in graph.nodes] == ["MulBackward0", "AccumulateGrad (w)"]
    assert graph.edges == ((1, 0),)


def test_shared_node_gets_its_longest_depth() -> None:
    w = torch.ones(2, requires_grad=True)
    out = (w.exp() + w).sum()  # w feeds Add directly and through Exp
    graph = autograd_graph(out, {"w": w})
    leaf = next(node for node in graph.nodes if node.kind == "leaf")
    assert leaf.depth == 3


def test_leaf_output_is_one_node() -> None:
    w = torch.ones(3, requires_grad=True)
    graph = autograd_graph(w, {"w": w})
    assert graph == AutogradGraph(
        nodes=(GraphNode(index=0, name="AccumulateGrad (w)", kind="leaf", depth=0),),
        edges=(),
    )


def test_graph_can_be_walked_under_no_grad() -> None:
    tensors = logistic()
    with torch.no_grad():
        graph = autograd_graph(tensors["loss"], tensors)
    assert graph.nodes[-1].name == "AccumulateGrad (w1)"


def test_leaf_inside_inference_mode_is_a_value_error() -> None:
    w = torch.ones(2, requires_grad=True)
    with torch.inference_mode(), pytest.raises(ValueError, match="inference_mode"):
        autograd_graph(w)


def test_not_a_tensor_is_a_type_error() -> None:
    with pytest.raises(TypeError, match=r"output must be a torch\.Tensor; got list"):
        autograd_graph([1.0])  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "make",
    [
        lambda: torch.ones(2),
        lambda: torch.ones(2, requires_grad=True).detach() * 2,
    ],
    ids=["constant", "detached"],
)
def test_tensor_without_a_graph_is_a_value_error(make: object) -> None:
    tensor = make()  # type: ignore[operator]
    with pytest.raises(ValueError, match="no grad_fn and does not require grad"):
        autograd_graph(tensor)


def test_tensor_computed_under_no_grad_has_no_graph() -> None:
    w = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        out = w * 2
    with pytest.raises(ValueError, match=r"outside torch\.no_grad\(\)"):
        autograd_graph(out)


def test_bad_names() -> None:
    loss = logistic()["loss"]
    with pytest.raises(TypeError, match="names must be a mapping"):
        autograd_graph(loss, [("w", loss)])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"names\['w'\] must be a torch\.Tensor"):
        autograd_graph(loss, {"w": 2.0})  # type: ignore[dict-item]
    with pytest.raises(TypeError, match="non-empty str keys; got ''"):
        autograd_graph(loss, {"": loss})
    with pytest.raises(ValueError, match="'loss' and 'again' are the same tensor"):
        autograd_graph(loss, {"loss": loss, "again": loss})


def test_too_many_nodes() -> None:
    w = torch.ones(1, requires_grad=True)
    out = w
    for _ in range(10):
        out = out * 2
    with pytest.raises(ValueError, match="more than max_nodes=5 nodes"):
        autograd_graph(out, max_nodes=5)
    assert len(autograd_graph(out, max_nodes=11).nodes) == 11
    with pytest.raises(ValueError, match="max_nodes must be at least 1; got 0"):
        autograd_graph(out, max_nodes=0)


def test_inputs_of_checks_the_index() -> None:
    graph = autograd_graph(logistic()["loss"])
    assert graph.inputs_of(5) == ()
    with pytest.raises(ValueError, match="between 0 and 5; got 6"):
        graph.inputs_of(6)


@pytest.mark.parametrize("direction", ["LR", "TB"])
def test_draw_one_box_per_node_one_arrow_per_edge(direction: str) -> None:
    tensors = logistic()
    graph = autograd_graph(tensors["loss"], tensors)
    ax = draw_graph(graph, direction=direction)  # type: ignore[arg-type]
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    arrows = [p for p in ax.patches if isinstance(p, FancyArrowPatch)]
    assert len(boxes) == len(graph.nodes)
    assert len(arrows) == len(graph.edges)
    assert ax.texts[0].get_text() == "BinaryCrossEntropyBackward0\n(loss)"
    # Inputs first: the leaf w1 is left of (LR) or above (TB) the loss.
    loss_box, w1_box = boxes[0].get_bbox(), boxes[5].get_bbox()
    if direction == "LR":
        assert w1_box.x1 < loss_box.x0
    else:
        assert w1_box.y0 > loss_box.y1


def test_draw_colours_leaves_and_operations_apart() -> None:
    ax = draw_graph(autograd_graph(logistic()["loss"]))
    boxes = [p for p in ax.patches if isinstance(p, FancyBboxPatch)]
    operation, leaf = boxes[0].get_facecolor()[:3], boxes[5].get_facecolor()[:3]
    assert operation != leaf
    # Each fill is a lighter tint of its palette colour.
    assert all(c >= p for c, p in zip(leaf, to_rgb(PALETTE[0]), strict=True))
    assert all(c >= p for c, p in zip(operation, to_rgb(PALETTE[1]), strict=True))
    legend = ax.get_legend()
    assert legend is not None
    assert [t.get_text() for t in legend.get_texts()] == [
        "leaf tensor (AccumulateGrad)",
        "operation (grad_fn)",
    ]


def test_boxes_do_not_overlap() -> None:
    w = torch.ones(3, requires_grad=True)
    out = (w.exp() * w.sin() + w.cos()).sum()
    ax = draw_graph(autograd_graph(out, {"w": w}), legend=False)
    boxes = [p.get_bbox() for p in ax.patches if isinstance(p, FancyBboxPatch)]
    for i, first in enumerate(boxes):
        for second in boxes[i + 1 :]:
            assert not first.overlaps(second)


def test_draw_on_given_axes() -> None:
    ax = plt.figure().subplots()
    assert draw_graph(autograd_graph(logistic()["loss"]), ax) is ax


def test_draw_bad_input() -> None:
    graph = autograd_graph(logistic()["loss"])
    with pytest.raises(
        TypeError,
        match=r"must be an AutogradGraph from autograd_graph\(\.\.\.\); got Tensor",
    ):
        draw_graph(logistic()["loss"])  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="direction must be one of 'LR', 'TB'; got 'RL'"
    ):
        draw_graph(graph, direction="RL")  # type: ignore[arg-type]
    with pytest.raises(
        ValueError, match="fontsize must be a finite number from 4 to 30"
    ):
        draw_graph(graph, fontsize=0)
