// The report page's board drawing: src/picture/svg.rs written again in JavaScript, line
// for line, over the same layout data, so the page draws a position exactly as
// `tessera render` does. The browser check compares both outputs.
"use strict";
const picture = (() => {
  function escape(text) {
    return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  }
  function stamp(template, centre, label) {
    return '<g transform="translate(' + centre + ')">' +
      template.split("{}").join(escape(label)) + "</g>";
  }
  function marks(layout, frame, over) {
    let out = "";
    for (const mark of frame.marks) {
      const style = layout.marks[mark.kind];
      if (!style || style.over !== over) continue;
      const centres = mark.cells.map((cell) => layout.centres[cell]).filter((c) => c !== undefined);
      if (style.path) {
        out += style.template.split("{}").join(centres.join(" "));
      } else {
        centres.forEach((centre, index) => {
          const label = index < mark.labels.length ? mark.labels[index] : "";
          out += stamp(style.template, centre, label);
        });
      }
    }
    return out;
  }
  function draw(layout, frame) {
    let out = layout.head;
    out += marks(layout, frame, false);
    for (let cell = 0; cell < frame.contents.length; cell++) {
      const template = layout.pieces[frame.contents[cell]];
      const centre = layout.centres[cell];
      if (template !== undefined && centre !== undefined) out += stamp(template, centre, "");
    }
    out += marks(layout, frame, true);
    layout.caption.forEach((tag, index) => {
      if (index < frame.caption.length) out += tag + escape(frame.caption[index]) + "</text>";
    });
    return out + "</svg>\n";
  }
  return { draw };
})();
