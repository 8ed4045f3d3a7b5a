// A pasted error message finds its entry in the error atlas.
//
// Sphinx's search wants every word of the query on one page, so a whole
// message, with its own shapes, sizes and names, finds nothing. Each entry's
// heading in the atlas is the stable part of a message (a "…" marks a part
// that changes). When every word of such a heading appears, in order, among
// the words of the query, the search runs for that heading instead, and its
// entry is ranked first. Any other query runs unchanged.
"use strict";

const ATLAS = "auto_examples/errors/";

const messageWords = (text) =>
  text
    .toLowerCase()
    .split(/[^\p{Letter}\p{Number}_]+/u)
    .filter((word) => word);

// The longest atlas heading whose words all appear in `query`, in order.
const atlasHeading = (index, query) => {
  const words = messageWords(query);
  let best = null;
  let bestLength = 2; // a heading of one or two words matches too easily
  for (const [title, found] of Object.entries(index.alltitles || {})) {
    if (!found.some(([file]) => index.docnames[file].startsWith(ATLAS))) continue;
    const wanted = messageWords(title);
    if (wanted.length <= bestLength) continue;
    let matched = 0;
    for (const word of words) {
      if (matched < wanted.length && word === wanted[matched]) matched += 1;
    }
    if (matched === wanted.length) {
      best = title;
      bestLength = wanted.length;
    }
  }
  return best;
};

document.addEventListener("DOMContentLoaded", () => {
  // Runs before searchtools.js starts the search (it waits for the same event).
  if (typeof Search === "undefined" || typeof Scorer === "undefined") return;
  const query = Search.query;
  let heading = null;
  const score = Scorer.score;
  Scorer.score = (result) => {
    const base = score ? score(result) : result[4];
    const [, title, anchor] = result;
    const isEntry = heading && anchor && title.endsWith(heading);
    return isEntry ? base + 1000 : base;
  };
  Search.query = (text) => {
    heading = Search._index ? atlasHeading(Search._index, text) : null;
    return query(heading || text);
  };
});
