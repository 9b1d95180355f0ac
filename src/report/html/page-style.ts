/** report.html's own CSS: light, readable, charts as wide as the page, print-friendly. */
export const PAGE_CSS = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:#222;background:#fff;margin:0 auto;padding:1.5em 2em;max-width:1200px}
h1{font-size:1.5em;margin:.2em 0}h2{font-size:1.2em;margin:1.6em 0 .4em;border-bottom:1px solid #ddd;padding-bottom:.2em}
code{background:#f4f4f4;padding:0 .25em;border-radius:3px}
.note,.sub{color:#666}.sub{font-size:.9em;margin-left:.4em}
.verdict{border-radius:6px;padding:.7em 1em;margin:1em 0;border:2px solid}
.verdict-status{margin:0;font-size:1.1em}.verdict-status strong{font-size:1.4em;margin-right:.5em}
.verdict ul{margin:.4em 0;padding-left:1.4em}.verdict-limits{margin:.3em 0 0;color:#444;font-size:.95em}
.verdict-pass{background:#e9f7ec;border-color:#2e9e44}.verdict-pass strong{color:#1e7a32}
.verdict-fail{background:#fdecea;border-color:#d62728}.verdict-fail strong{color:#b01c1d}
.verdict-invalid{background:#fff4e0;border-color:#e69500}.verdict-invalid strong{color:#a86a00}
figure.chart{margin:1.2em 0;break-inside:avoid;page-break-inside:avoid}figcaption{margin-bottom:.3em}
.chart-plot{width:100%;min-height:300px}
p.chart-note{margin:1em 0;padding:.4em .8em;background:#f7f7f7;border-left:3px solid #bbb}
.hr{display:grid;grid-template-columns:max-content 1fr max-content;gap:.35em .8em;align-items:center;max-width:900px}
.hr-row{display:contents}.hr-name{white-space:nowrap}.hr-none{grid-column:2 / span 2;color:#666}
.hr-track{position:relative;height:14px;background:#eee;border-radius:2px}
.hr-bar{position:absolute;left:0;top:0;bottom:0;border-radius:2px}
.hr-ok{background:#4c9be8}.hr-hot{background:#f0a030}.hr-over{background:#d62728}
.hr-mark{position:absolute;top:-3px;bottom:-3px;width:0;border-left:1px dashed #888}.hr-mark-100{border-left:2px solid #444}
.hr-figure{white-space:nowrap;font-variant-numeric:tabular-nums}
#tables table{border-collapse:collapse;margin:.5em 0 1.5em}#tables th,#tables td{border:1px solid #ccc;padding:3px 8px;text-align:right}
#tables th{background:#f4f4f4}#tables th:first-child,#tables td:first-child{text-align:left}
.u-legend{font-size:13px}
@media print{body{padding:0;max-width:none;font-size:11px}.verdict{-webkit-print-color-adjust:exact;print-color-adjust:exact}.hr-bar{-webkit-print-color-adjust:exact;print-color-adjust:exact}}
`;
