/**
 * The browser side of charts.ts, as the script text report.html inlines after uPlot: finds every
 * `figure.chart`, reads its ChartSpec from the JSON inside it and draws it with uPlot — x in run
 * time (h:mm:ss, `2d 03:00:00` past a day) or, for `xAxis.kind: 'value'`, as plain numbers with
 * their label; legend with the values under the cursor (a stacked series shows its own value, not
 * the stack's top); lines, or dots for `points` series; y linear from 0, or logarithmic; cursors synchronised across charts of the
 * same x axis; width following the page (and print). Each instance lands in
 * `window.loadlabCharts[id]`.
 */
export const CHART_BOOT_JS = String.raw`(function () {
  "use strict";
  var PALETTE = ["#3366cc", "#dc3912", "#ff9900", "#109618", "#990099", "#0099c6", "#dd4477", "#66aa00", "#b82e2e", "#316395"];
  var INCRS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200, 86400, 172800, 604800, 1209600];
  var INT_INCRS = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000];
  var HEIGHT = 260;
  var pad = function (n) { return (n < 10 ? "0" : "") + n; };
  function runTime(s) {
    s = Math.round(s);
    var d = Math.floor(s / 86400), r = s - d * 86400;
    var h = Math.floor(r / 3600), m = Math.floor((r % 3600) / 60), x = r % 60;
    return (d ? d + "d " + pad(h) : String(h)) + ":" + pad(m) + ":" + pad(x);
  }
  function num(v) {
    if (v == null) return "–";
    var a = Math.abs(v);
    var s = Number.isInteger(v) || a >= 100 ? String(Math.round(v)) : a >= 10 ? v.toFixed(1) : a >= 0.01 ? v.toFixed(2) : String(Number(v.toPrecision(3)));
    return s.replace(/\B(?=(\d{3})+(?!\d))/g, " ");
  }
  /** A value x axis: its label, plain numbers, whole-number ticks when every x is whole. */
  function valueAxis(x, label) {
    var a = { label: label, values: function (u, splits) { return splits.map(num); }, space: 50 };
    if (x.every(Number.isInteger)) a.incrs = INT_INCRS;
    return a;
  }
  /** Room around the first and last x, so their dots are not cut at the edge. */
  function padded(u, min, max) {
    var d = max > min ? (max - min) * 0.04 : Math.max(Math.abs(min) * 0.1, 1);
    return [min - d, max + d];
  }
  var charts = {};
  window.loadlabCharts = charts;
  function widthOf(fig) { return Math.max(300, fig.querySelector(".chart-plot").clientWidth); }
  function build(fig) {
    var spec = JSON.parse(fig.querySelector("script.chart-data").textContent);
    var data = [spec.x];
    var xv = spec.xAxis && spec.xAxis.kind === "value" ? spec.xAxis : null;
    var xFmt = xv ? num : runTime;
    var xLabel = xv ? xv.label + (xv.unit ? " (" + xv.unit + ")" : "") : "run time";
    var series = [{ label: xLabel, value: function (u, v) { return v == null ? "–" : xFmt(v); } }];
    var bands = [];
    var sums = null, below = 0;
    spec.series.forEach(function (s, i) {
      var color = s.color || PALETTE[i % PALETTE.length];
      var own = s.values;
      var opts = {
        label: s.label, stroke: color, width: s.width || 1.5, points: { show: false },
        value: function (u, v, si, di) { return di == null ? "–" : num(own[di]); },
      };
      if (s.dash) opts.dash = [6, 4];
      if (s.points) { opts.paths = function () { return null; }; opts.points = { show: true, size: 7, width: 1, fill: color }; }
      if (s.spanGaps) opts.spanGaps = true;
      var vals = spec.yLog ? own.map(function (v) { return v > 0 ? v : null; }) : own;
      if (s.stacked) {
        sums = sums || spec.x.map(function () { return 0; });
        vals = own.map(function (v, j) { sums[j] += v || 0; return sums[j]; });
        opts.fill = color + "66";
        if (below) bands.push({ series: [i + 1, below] });
        below = i + 1;
      }
      data.push(vals);
      series.push(opts);
    });
    var u = new uPlot({
      width: widthOf(fig), height: HEIGHT, series: series, bands: bands,
      cursor: { sync: { key: xv ? "loadlab:" + xLabel : "loadlab" } },
      scales: { x: xv ? { time: false, range: padded } : { time: false }, y: spec.yLog ? { distr: 3 } : { range: function (u, min, max) { return [Math.min(0, min), max > 0 ? max * 1.08 : 1]; } } },
      axes: [
        xv ? valueAxis(spec.x, xLabel) : { incrs: INCRS, values: function (u, splits) { return splits.map(runTime); }, space: 70 },
        { label: spec.unit, values: function (u, splits) { return splits.map(num); }, size: 60 },
      ],
    }, data, fig.querySelector(".chart-plot"));
    charts[spec.id] = u;
  }
  document.querySelectorAll("figure.chart").forEach(build);
  function fit() {
    document.querySelectorAll("figure.chart").forEach(function (fig) {
      var u = charts[fig.id.slice("chart-".length)];
      if (u) u.setSize({ width: widthOf(fig), height: HEIGHT });
    });
  }
  window.addEventListener("resize", fit);
  window.addEventListener("beforeprint", fit);
})();`;
