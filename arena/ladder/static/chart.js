// The rating history as an inline SVG line chart: per version, mu after each rated deal set with
// the mu ± 2 sigma band behind it and mu - 3 sigma (the board's rating) dashed. No library.

const NS = "http://www.w3.org/2000/svg";
const COLOURS = ["#1d6b3a", "#1a5fb4", "#c4161c", "#6a1b9a", "#b36b00", "#00838f"];

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) node.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  return node;
}

/** ``series``: [{label, status, points: [{deal_set, mu, sigma, rating}]}] of one ladder. */
export function historyChart(series, { width = 640, height = 260 } = {}) {
  const pad = { left: 44, right: 12, top: 12, bottom: 30 };
  const points = series.flatMap((s) => s.points);
  const xs = points.map((p) => p.deal_set);
  const ys = points.flatMap((p) => [p.mu - 2 * p.sigma, p.mu + 2 * p.sigma, p.rating]);
  const [x0, x1] = [Math.min(...xs), Math.max(...xs)];
  let [y0, y1] = [Math.min(...ys), Math.max(...ys)];
  if (y1 - y0 < 1) [y0, y1] = [y0 - 1, y1 + 1];
  const order = [...new Set(xs)].sort((a, b) => a - b); // deal sets in the order they were rated
  const X = (d) => pad.left + (order.length > 1 ? order.indexOf(d) / (order.length - 1) : 0.5) * (width - pad.left - pad.right);
  const Y = (v) => pad.top + (1 - (v - y0) / (y1 - y0)) * (height - pad.top - pad.bottom);
  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: "history-chart", role: "img",
    "aria-label": "rating history" });
  // axes and a few horizontal grid lines with their values
  for (let i = 0; i <= 4; i++) {
    const v = y0 + (i / 4) * (y1 - y0);
    root.appendChild(svg("line", { x1: pad.left, x2: width - pad.right, y1: Y(v), y2: Y(v), class: "grid" }));
    root.appendChild(svg("text", { x: pad.left - 4, y: Y(v) + 4, "text-anchor": "end", class: "tick" }, v.toFixed(0)));
  }
  root.appendChild(svg("text", { x: (width + pad.left) / 2, y: height - 6, "text-anchor": "middle", class: "tick" },
    `rated deal sets (${order.length}: ${x0} to ${x1})`));
  series.forEach((s, i) => {
    if (!s.points.length) return;
    const colour = s.status === "retired" ? "#999" : COLOURS[i % COLOURS.length];
    const upper = s.points.map((p) => `${X(p.deal_set)},${Y(p.mu + 2 * p.sigma)}`);
    const lower = s.points.map((p) => `${X(p.deal_set)},${Y(p.mu - 2 * p.sigma)}`).reverse();
    const band = s.points.length > 1 ? [...upper, ...lower].join(" ")
      : [`${X(s.points[0].deal_set) - 4},${Y(s.points[0].mu + 2 * s.points[0].sigma)}`, `${X(s.points[0].deal_set) + 4},${Y(s.points[0].mu + 2 * s.points[0].sigma)}`,
         `${X(s.points[0].deal_set) + 4},${Y(s.points[0].mu - 2 * s.points[0].sigma)}`, `${X(s.points[0].deal_set) - 4},${Y(s.points[0].mu - 2 * s.points[0].sigma)}`].join(" ");
    const group = svg("g", { class: `series${s.status === "retired" ? " retired" : ""}`, "data-version": s.version });
    group.appendChild(svg("polygon", { points: band, fill: colour, "fill-opacity": 0.15, class: "band" }));
    group.appendChild(svg("polyline", { points: s.points.map((p) => `${X(p.deal_set)},${Y(p.mu)}`).join(" "), fill: "none",
      stroke: colour, "stroke-width": 2, class: "mu" }));
    group.appendChild(svg("polyline", { points: s.points.map((p) => `${X(p.deal_set)},${Y(p.rating)}`).join(" "), fill: "none",
      stroke: colour, "stroke-width": 1.5, "stroke-dasharray": "4 3", class: "rating" }));
    for (const p of s.points) {
      group.appendChild(svg("circle", { cx: X(p.deal_set), cy: Y(p.mu), r: 2.5, fill: colour },
        svg("title", {}, `${s.label}, deal set ${p.deal_set}: mu ${p.mu.toFixed(2)}, sigma ${p.sigma.toFixed(2)}, rating ${p.rating.toFixed(2)}`)));
    }
    root.appendChild(group);
  });
  return root;
}

/** A row's interval as a small bar on the board's common scale [lo, hi]; the dot is the rating. */
export function intervalBar(interval, value, [lo, hi], { width = 110, height = 14 } = {}) {
  const root = svg("svg", { width, height, viewBox: `0 0 ${width} ${height}`, class: "interval-bar", "aria-hidden": "true" });
  if (!interval || hi <= lo) return root;
  const X = (v) => 2 + ((v - lo) / (hi - lo)) * (width - 4);
  root.appendChild(svg("line", { x1: 2, x2: width - 2, y1: height / 2, y2: height / 2, class: "axis" }));
  root.appendChild(svg("rect", { x: X(interval[0]), y: 3, width: Math.max(1, X(interval[1]) - X(interval[0])), height: height - 6,
    rx: 3, class: "span" }));
  root.appendChild(svg("circle", { cx: X(value), cy: height / 2, r: 3, class: "value" }));
  return root;
}
