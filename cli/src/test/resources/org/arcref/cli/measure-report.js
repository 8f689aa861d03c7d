// Injected by BrowserCheck (test sources) into a copy of an arc report, never into the report itself: after
// Chromium has laid the page out, it writes what was rendered into a hidden pre element (id arcref-measure), one
// tab-separated line per thing, which `chromium --dump-dom` prints. Coordinates are page pixels.
(function () {
  var out = [];
  function rect(e) {
    var r = e.getBoundingClientRect();
    return [r.left + window.scrollX, r.top + window.scrollY, r.width, r.height].map(function (v) {
      return v.toFixed(1);
    }).join('\t');
  }
  function shown(e) {
    var s = getComputedStyle(e);
    return e.getClientRects().length > 0 && s.display !== 'none' && s.visibility === 'visible'
        && Number(s.opacity) > 0 ? 'shown' : 'hidden';
  }
  function clean(t) {
    return t.replace(/[\t\n\r]/g, ' ');
  }
  out.push(['window', window.innerWidth, window.innerHeight].join('\t'));
  out.push(['page', document.documentElement.scrollWidth, document.documentElement.scrollHeight].join('\t'));
  var svgs = document.getElementsByTagNameNS('http://www.w3.org/2000/svg', 'svg');
  for (var i = 0; i < svgs.length; i++) {
    var svg = svgs[i];
    var title = svg.querySelector('title');
    out.push(['svg', i, rect(svg), clean(title ? title.textContent : '')].join('\t'));
    var es = svg.querySelectorAll('line.axis, text.tick, polyline.series, rect.bar, text.legend');
    for (var j = 0; j < es.length; j++) {
      var e = es[j], s = getComputedStyle(e), cls = e.getAttribute('class');
      if (cls === 'axis') {
        out.push(['axis', i, rect(e), s.stroke, shown(e), e.getTotalLength().toFixed(1)].join('\t'));
      } else if (cls === 'tick') {
        out.push(['tick', i, rect(e), shown(e), clean(e.textContent)].join('\t'));
      } else if (cls === 'series') {
        var seen = {}, distinct = 0, n = e.points.numberOfItems;
        for (var k = 0; k < n; k++) {
          var p = e.points.getItem(k), key = p.x + ',' + p.y;
          if (!seen[key]) {
            seen[key] = true;
            distinct++;
          }
        }
        out.push(['line', i, rect(e), s.stroke, s.strokeWidth, shown(e), e.getTotalLength().toFixed(1), n,
          distinct].join('\t'));
      } else if (cls === 'bar') {
        out.push(['bar', i, rect(e), s.fill, shown(e)].join('\t'));
      } else if (cls === 'legend') {
        var swatch = e.previousElementSibling;
        var swatchColour = swatch && swatch.localName === 'line' ? getComputedStyle(swatch).stroke : 'none';
        out.push(['legend', i, rect(e), shown(e), swatch ? rect(swatch) : '0\t0\t0\t0', swatchColour,
          clean(e.textContent)].join('\t'));
      }
    }
  }
  var pre = document.createElement('pre');
  pre.id = 'arcref-measure';
  pre.hidden = true;
  pre.textContent = out.join('\n');
  document.body.appendChild(pre);
})();
