//! A [`Frame`] on a [`Layout`] as SVG text. `draw.js` is this function written again for
//! the report page, line for line; the browser check compares the two outputs.

use super::frame::Frame;
use super::layout::Layout;
use super::markup::escape;

/// A template stamped at a centre: `{}` becomes the label.
fn stamp(out: &mut String, template: &str, centre: &str, label: &str) {
    out.push_str("<g transform=\"translate(");
    out.push_str(centre);
    out.push_str(")\">");
    out.push_str(&template.replace("{}", &escape(label)));
    out.push_str("</g>");
}

fn marks(out: &mut String, layout: &Layout, frame: &Frame, over: bool) {
    for mark in &frame.marks {
        let Some(style) = layout.marks.get(mark.kind as usize) else {
            continue;
        };
        if style.over != over {
            continue;
        }
        let centres = mark
            .cells
            .iter()
            .filter_map(|&cell| layout.centres.get(usize::from(cell)));
        if style.path {
            let points: Vec<&str> = centres.map(String::as_str).collect();
            out.push_str(&style.template.replace("{}", &points.join(" ")));
        } else {
            for (index, centre) in centres.enumerate() {
                let label = mark.labels.get(index).map_or("", String::as_str);
                stamp(out, &style.template, centre, label);
            }
        }
    }
}

/// The whole picture: board, marks under the pieces, pieces, marks over them, caption.
pub fn draw(layout: &Layout, frame: &Frame) -> String {
    let mut out = layout.head.clone();
    marks(&mut out, layout, frame, false);
    for (cell, letter) in frame.contents.chars().enumerate() {
        if let (Some(template), Some(centre)) =
            (layout.pieces.get(&letter), layout.centres.get(cell))
        {
            stamp(&mut out, template, centre, "");
        }
    }
    marks(&mut out, layout, frame, true);
    for (tag, line) in layout.caption.iter().zip(&frame.caption) {
        out.push_str(tag);
        out.push_str(&escape(line));
        out.push_str("</text>");
    }
    out.push_str("</svg>\n");
    out
}
