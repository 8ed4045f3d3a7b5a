"""Walk and draw the graph that autograd records.

While gradient mode is on (outside :class:`torch.no_grad` and
:class:`torch.inference_mode`), a differentiable operation with an input that
requires gradients leaves a node of the :term:`computational graph` behind:
its result's :attr:`~torch.Tensor.grad_fn`, which links to the nodes of its
inputs through ``next_functions``. (An operation with integer results, such as
:func:`torch.argmax`, records none.) A :term:`leaf` tensor that requires
gradients appears as an ``AccumulateGrad`` node, the one that adds into its
:attr:`~torch.Tensor.grad`.
:func:`autograd_graph` follows those links from an output into a small,
deterministic structure, and :func:`draw_graph` draws it as boxes and arrows
with matplotlib alone (no graphviz needed).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import torch
from matplotlib.axes import Axes

from tutorial_utils._checks import check_choice, check_instance, check_int, check_number
from tutorial_utils.colours import PALETTE

__all__ = ["AutogradGraph", "GraphNode", "autograd_graph", "draw_graph"]

# The most nodes autograd_graph walks unless told otherwise; a larger graph
# cannot be drawn readably (summarise the model instead).
_MAX_NODES = 60

#: Fill colour of each kind of node, from :data:`~tutorial_utils.colours.PALETTE`.
_COLOURS = {"leaf": PALETTE[0], "operation": PALETTE[1]}
_LEGEND = {
    "leaf": "leaf tensor (AccumulateGrad)",
    "operation": "operation (grad_fn)",
}

_CHAR_INCHES = 0.0085  # width of one character per point of font size
_BOX_PAD = 0.22  # inches of padding around a label, in total
_GAP = 0.55  # inches between the boxes of two layers, room for an arrow
_ROW = 0.95  # inches between the centres of two boxes of one layer


@dataclass(frozen=True)
class GraphNode:
    """One node of an :class:`AutogradGraph`.

    Attributes
    ----------
    index : int
        Position in :attr:`AutogradGraph.nodes`; the output's node is 0.
    name : str
        Readable name, such as ``"SigmoidBackward0"`` or
        ``"AccumulateGrad (w)"``. In brackets: the name, from the ``names``
        given to :func:`autograd_graph`, of the tensor that owns the node;
        for a leaf without a name, its shape, as in
        ``"AccumulateGrad (shape (2,))"``.
    kind : str
        ``"leaf"`` for the ``AccumulateGrad`` node of a leaf tensor, else
        ``"operation"``.
    depth : int
        Length of the longest path from the output's node to this one.
    """

    index: int
    name: str
    kind: Literal["leaf", "operation"]
    depth: int


@dataclass(frozen=True)
class AutogradGraph:
    """The nodes autograd recorded for one output, and the links between them.

    Attributes
    ----------
    nodes : tuple of GraphNode
        In the order a breadth-first walk from the output finds them, so the
        same code always gives the same order.
    edges : tuple of tuple of int
        ``(source, target)`` pairs of node indices, in the direction of the
        forward computation: ``source`` is an input of ``target``, so
        ``target.next_functions`` holds ``source``. Each pair appears once,
        even when an operation uses the same input twice (``x * x``).
    """

    nodes: tuple[GraphNode, ...]
    edges: tuple[tuple[int, int], ...]

    def inputs_of(self, index: int) -> tuple[GraphNode, ...]:
        """The nodes that feed node `index`, in ``next_functions`` order."""
        check_int("index", index, minimum=0, maximum=len(self.nodes) - 1)
        return tuple(self.nodes[s] for s, t in self.edges if t == index)

    def __str__(self) -> str:
        """One line per node: its name and the names of its inputs."""
        lines = []
        for node in self.nodes:
            inputs = ", ".join(n.name for n in self.inputs_of(node.index))
            lines.append(f"{node.name} <- {inputs}" if inputs else node.name)
        return "\n".join(lines)


def _check_names(
    names: Mapping[str, torch.Tensor] | None,
) -> list[tuple[str, torch.Tensor]]:
    if names is None:
        return []
    check_instance(
        "names", names, Mapping, "a mapping from str to torch.Tensor, such as {'w': w}"
    )
    checked: list[tuple[str, torch.Tensor]] = []
    for name, tensor in names.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"names must have non-empty str keys; got {name!r}")
        check_instance(f"names[{name!r}]", tensor, torch.Tensor, "a torch.Tensor")
        for other, seen in checked:
            if seen is tensor:
                raise ValueError(
                    f"names {other!r} and {name!r} are the same tensor; "
                    "give each tensor one name"
                )
        checked.append((name, tensor))
    return checked


def _node_name(node: Any, owners: dict[int, str]) -> str:
    # name() is e.g. "torch::autograd::AccumulateGrad" or "SigmoidBackward0".
    base = str(node.name()).rsplit("::", 1)[-1]
    owner = owners.get(id(node))
    if owner is None and base == "AccumulateGrad":
        variable = node.variable
        return f"{base} (shape {tuple(variable.shape)})"
    return base if owner is None else f"{base} ({owner})"


def autograd_graph(
    output: torch.Tensor,
    names: Mapping[str, torch.Tensor] | None = None,
    *,
    max_nodes: int = _MAX_NODES,
) -> AutogradGraph:
    """Walk the graph autograd recorded for `output`, from its ``grad_fn``.

    Parameters
    ----------
    output : torch.Tensor
        A tensor computed from tensors that require gradients (it has a
        :attr:`~torch.Tensor.grad_fn`), or a leaf tensor that requires
        gradients (its graph is one ``AccumulateGrad`` node).
    names : collections.abc.Mapping of str to torch.Tensor, optional
        Names for tensors, such as ``{"w": w, "loss": loss}``. A leaf's
        ``AccumulateGrad`` node and a computed tensor's ``grad_fn`` node are
        labelled with the tensor's name. Tensors that are not in the graph
        (constants such as inputs without ``requires_grad``) are ignored, so
        one mapping can serve several graphs.
    max_nodes : int, default 60
        Stop with an error beyond this many nodes: a larger graph cannot be
        drawn readably.

    Returns
    -------
    AutogradGraph
        The nodes, in breadth-first order from the output, and the edges.

    Raises
    ------
    TypeError
        If `output` is not a tensor, `names` is not a mapping from str to
        tensors, or `max_nodes` is not an int.
    ValueError
        If autograd recorded nothing for `output`, if two names are given to
        one tensor, if `max_nodes` is below 1, if the graph has
        more than `max_nodes` nodes, or if a leaf's node is needed inside
        :class:`torch.inference_mode`.

    Examples
    --------
    >>> w = torch.tensor([2.0], requires_grad=True)
    >>> loss = torch.sigmoid(3.0 * w).sum()
    >>> graph = autograd_graph(loss, {"w": w})
    >>> print(graph)
    SumBackward0 <- SigmoidBackward0
    SigmoidBackward0 <- MulBackward0
    MulBackward0 <- AccumulateGrad (w)
    AccumulateGrad (w)
    >>> graph.edges
    ((1, 0), (2, 1), (3, 2))
    >>> autograd_graph(torch.ones(2))
    Traceback (most recent call last):
    ...
    ValueError: output has no grad_fn and does not require grad, ...
    """
    if not isinstance(output, torch.Tensor):
        raise TypeError(
            f"output must be a torch.Tensor; got {type(output).__name__}. "
            "Pass the tensor whose graph you want, such as the loss."
        )
    check_int("max_nodes", max_nodes, minimum=1)
    named = _check_names(names)

    # Node objects are told apart by id(); `keep` (the named nodes) and
    # `order` (the nodes walked) hold every one of them alive while its id
    # is a key, so no id is reused. Ids never leave here.
    owners: dict[int, str] = {}
    keep: list[object] = []
    for name, tensor in named:
        if tensor.grad_fn is not None:
            node = tensor.grad_fn
        elif tensor.requires_grad and tensor.is_leaf:
            node = _accumulator(tensor)
        else:
            continue
        keep.append(node)
        owners[id(node)] = name

    if output.grad_fn is not None:
        root: Any = output.grad_fn
    elif output.requires_grad:
        root = _accumulator(output)
    else:
        raise ValueError(
            "output has no grad_fn and does not require grad, so autograd "
            "recorded no graph for it: compute it from tensors created with "
            "requires_grad=True, outside torch.no_grad() and "
            "torch.inference_mode()."
        )

    order: list[Any] = [root]
    index = {id(root): 0}
    depth = {0: 0}
    edges: list[tuple[int, int]] = []
    position = 0
    while position < len(order):
        node = order[position]
        target = index[id(node)]
        for child, _ in node.next_functions:
            if child is None:  # an input that does not require grad
                continue
            if id(child) not in index:
                if len(order) == max_nodes:
                    raise ValueError(
                        f"the graph has more than max_nodes={max_nodes} nodes; "
                        "draw a smaller part of it or raise max_nodes"
                    )
                index[id(child)] = len(order)
                order.append(child)
            edge = (index[id(child)], target)
            if edge not in edges:
                edges.append(edge)
        position += 1

    # Longest path from the output: relax in breadth-first order until stable
    # (a graph of at most max_nodes nodes needs at most that many rounds).
    for _ in range(len(order)):
        changed = False
        for source, target in edges:
            if depth.get(source, -1) < depth[target] + 1:
                depth[source] = depth[target] + 1
                changed = True
        if not changed:
            break

    nodes = tuple(
        GraphNode(
            index=i,
            name=_node_name(node, owners),
            kind="leaf" if hasattr(node, "variable") else "operation",
            depth=depth[i],
        )
        for i, node in enumerate(order)
    )
    return AutogradGraph(nodes=nodes, edges=tuple(edges))


def _accumulator(leaf: torch.Tensor) -> Any:
    """The AccumulateGrad node of a leaf that requires grad."""
    # A view records the leaf's accumulator as its only input; nothing runs.
    with torch.enable_grad():
        view = leaf.view_as(leaf)
    if view.grad_fn is None:  # inside torch.inference_mode()
        raise ValueError(
            "cannot reach the AccumulateGrad node of a leaf inside "
            "torch.inference_mode(); call autograd_graph outside it"
        )
    return view.grad_fn.next_functions[0][0]


def _label(name: str) -> str:
    """Split "Op (owner)" over two lines, so boxes stay narrow."""
    return name.replace(" (", "\n(", 1)


def _box_size(label: str, fontsize: float) -> tuple[float, float]:
    lines = label.split("\n")
    width = max(len(line) for line in lines) * _CHAR_INCHES * fontsize + _BOX_PAD
    height = len(lines) * fontsize * 1.45 / 72 + _BOX_PAD
    return width, height


def _tint(colour: str, amount: float = 0.45) -> tuple[float, float, float]:
    from matplotlib.colors import to_rgb

    return tuple(  # type: ignore[return-value]
        channel + (1 - channel) * amount for channel in to_rgb(colour)
    )


def _layout(
    graph: AutogradGraph, direction: str, fontsize: float
) -> tuple[dict[int, tuple[float, float]], dict[int, tuple[float, float]]]:
    """Centre and size (inches) of every box, inputs first along `direction`."""
    deepest = max(node.depth for node in graph.nodes)
    layers: list[list[int]] = [[] for _ in range(deepest + 1)]
    # Layer 0 holds the deepest inputs; the output's node is in the last one.
    for node in graph.nodes:
        layers[deepest - node.depth].append(node.index)
    # Order each layer by the mean slot of the nodes it feeds (placed first,
    # from the output backwards), which keeps arrows from crossing in small
    # graphs; ties keep breadth-first order.
    slot: dict[int, float] = {}
    for layer in reversed(layers):
        means = {}
        for i in layer:
            targets = [slot[t] for s, t in graph.edges if s == i and t in slot]
            means[i] = sum(targets) / len(targets) if targets else 0.0
        layer.sort(key=lambda i: (means[i], i))
        for rank, i in enumerate(layer):
            slot[i] = rank - (len(layer) - 1) / 2

    sizes = {node.index: _box_size(_label(node.name), fontsize) for node in graph.nodes}
    centres: dict[int, tuple[float, float]] = {}
    along = 0.0
    for layer in layers:
        if direction == "LR":
            extent = max(sizes[i][0] for i in layer)
            row = max(_ROW, max(sizes[i][1] for i in layer) + 0.3)
            for i in layer:
                centres[i] = (along + extent / 2, -slot[i] * row)
        else:
            extent = max(sizes[i][1] for i in layer)
            column = max(sizes[i][0] for i in layer) + 0.35
            for i in layer:
                centres[i] = (slot[i] * column, -(along + extent / 2))
        along += extent + _GAP
    return centres, sizes


def draw_graph(
    graph: AutogradGraph,
    ax: Axes | None = None,
    *,
    direction: Literal["LR", "TB"] = "LR",
    fontsize: float = 9.0,
    legend: bool = True,
) -> Axes:
    """Draw an :class:`AutogradGraph` as boxes in layers, joined by arrows.

    Inputs come first (left, or top) and the output's node last; an arrow
    goes from an input to the operation that used it, the way the forward
    pass ran. :meth:`torch.Tensor.backward` follows the arrows in reverse.
    Leaves are filled with ``PALETTE[0]``, operations with ``PALETTE[1]``
    (both lightened so the text stays readable).

    Parameters
    ----------
    graph : AutogradGraph
        As returned by :func:`autograd_graph`.
    ax : matplotlib.axes.Axes, optional
        Where to draw. By default a new :mod:`matplotlib.pyplot` figure sized
        to the graph, so that the boxes fit their labels.
    direction : {"LR", "TB"}, default "LR"
        Left to right, or top to bottom.
    fontsize : float, default 9
        Size of the labels, in points, from 4 to 30.
    legend : bool, default True
        Say which colour is a leaf and which an operation.

    Returns
    -------
    matplotlib.axes.Axes
        The axes drawn on, with equal aspect and no frame.

    Raises
    ------
    TypeError
        If `graph` is not an :class:`AutogradGraph`, or `fontsize` is not a
        number.
    ValueError
        If `direction` or `fontsize` is not one of the accepted values.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> w = torch.tensor([2.0], requires_grad=True)
    >>> ax = draw_graph(autograd_graph((w * w).sum(), {"w": w}))
    >>> [text.get_text() for text in ax.texts]
    ['SumBackward0', 'MulBackward0', 'AccumulateGrad\\n(w)']
    >>> plt.close(ax.figure)
    """
    from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

    check_instance(
        "graph", graph, AutogradGraph, "an AutogradGraph from autograd_graph(...)"
    )
    check_choice("direction", direction, ("LR", "TB"))
    check_number("fontsize", fontsize, minimum=4, maximum=30)

    centres, sizes = _layout(graph, direction, fontsize)
    lefts = [centres[i][0] - sizes[i][0] / 2 for i in centres]
    rights = [centres[i][0] + sizes[i][0] / 2 for i in centres]
    bottoms = [centres[i][1] - sizes[i][1] / 2 for i in centres]
    tops = [centres[i][1] + sizes[i][1] / 2 for i in centres]
    margin = 0.15
    kinds = sorted({node.kind for node in graph.nodes})
    legend_room = 0.45 if legend else 0.0
    # The legend is one row under the boxes; widen the drawing if it is wider.
    legend_width = (
        sum(len(_LEGEND[kind]) * _CHAR_INCHES * (fontsize - 1) + 0.8 for kind in kinds)
        if legend
        else 0.0
    )
    spare = max(0.0, legend_width - (max(rights) - min(lefts))) / 2
    xlim = (min(lefts) - margin - spare, max(rights) + margin + spare)
    ylim = (min(bottoms) - margin - legend_room, max(tops) + margin)
    if ax is None:
        import matplotlib.pyplot as plt

        width, height = xlim[1] - xlim[0], ylim[1] - ylim[0]
        fig = plt.figure(figsize=(max(width, 3.0), max(height, 1.0)))
        ax = fig.add_axes((0, 0, 1, 1))

    for node in graph.nodes:
        (x, y), (w, h) = centres[node.index], sizes[node.index]
        ax.add_patch(
            FancyBboxPatch(
                (x - w / 2, y - h / 2),
                w,
                h,
                boxstyle="round,pad=0,rounding_size=0.08",
                facecolor=_tint(_COLOURS[node.kind]),
                edgecolor="#333333",
                linewidth=1.0,
                zorder=2,
            )
        )
        ax.text(
            x,
            y,
            _label(node.name),
            ha="center",
            va="center",
            fontsize=fontsize,
            color="black",
            linespacing=1.3,
            zorder=3,
        )
    for source, target in graph.edges:
        (x0, y0), (w0, h0) = centres[source], sizes[source]
        (x1, y1), (w1, h1) = centres[target], sizes[target]
        if direction == "LR":
            start, end = (x0 + w0 / 2, y0), (x1 - w1 / 2, y1)
        else:
            start, end = (x0, y0 - h0 / 2), (x1, y1 + h1 / 2)
        ax.add_patch(
            FancyArrowPatch(
                start,
                end,
                arrowstyle="-|>",
                mutation_scale=12,
                linewidth=1.2,
                color="#333333",
                shrinkA=1,
                shrinkB=1,
                zorder=1,
            )
        )
    if legend:
        ax.legend(
            handles=[
                Patch(
                    facecolor=_tint(_COLOURS[kind]),
                    edgecolor="#333333",
                    label=_LEGEND[kind],
                )
                for kind in kinds
            ],
            loc="lower center",
            ncols=len(kinds),
            fontsize=fontsize - 1,
            frameon=False,
        )
    ax.set_xlim(*xlim)
    ax.set_ylim(*ylim)
    ax.set_aspect("equal")
    ax.set_axis_off()
    return ax
