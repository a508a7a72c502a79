//! Plots as inline SVG text: a line chart with an optional band and horizontal guide
//! lines, and a histogram. Fixed size, one decimal per coordinate, deterministic.

use std::fmt::Write as _;

use crate::picture::layout::coordinate as number;
use crate::picture::markup::escape;

const WIDTH: f64 = 560.0;
const HEIGHT: f64 = 260.0;
const LEFT: f64 = 56.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 28.0;
const BOTTOM: f64 = 40.0;

/// A line of a chart.
pub struct Series {
    pub name: String,
    /// CSS class (colour) of the line.
    pub class: &'static str,
    pub points: Vec<(f64, f64)>,
}

/// A chart: lines, an optional shaded band `(x, low, high)`, guide lines `(y, label)`.
pub struct LineChart {
    pub title: String,
    pub x_label: String,
    pub y_label: String,
    pub series: Vec<Series>,
    pub band: Vec<(f64, f64, f64)>,
    pub guides: Vec<(f64, String)>,
}

/// About five round tick values covering `low..high`.
fn ticks(low: f64, high: f64) -> Vec<f64> {
    let span = (high - low).max(1e-9);
    let raw = span / 5.0;
    let magnitude = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .into_iter()
        .map(|factor| factor * magnitude)
        .find(|step| *step >= raw)
        .unwrap_or(10.0 * magnitude);
    let mut values = Vec::new();
    let mut value = (low / step).ceil() * step;
    while value <= high + step * 1e-9 && values.len() < 20 {
        values.push(value + 0.0);
        value += step;
    }
    values
}

fn tick_text(value: f64) -> String {
    if value.abs() >= 100.0 || value.fract() == 0.0 {
        format!("{value:.0}")
    } else {
        let text = format!("{value:.2}");
        text.trim_end_matches('0').to_string()
    }
}

/// The frame of a chart: title, axes with ticks; returns the text and the coordinate maps.
fn axes(
    title: &str,
    x_label: &str,
    y_label: &str,
    x_range: (f64, f64),
    y_range: (f64, f64),
) -> (String, impl Fn(f64) -> f64, impl Fn(f64) -> f64) {
    let (x_low, x_high) = x_range;
    let (y_low, y_high) = y_range;
    let x_span = (x_high - x_low).max(1e-9);
    let y_span = (y_high - y_low).max(1e-9);
    let plot_width = WIDTH - LEFT - RIGHT;
    let plot_height = HEIGHT - TOP - BOTTOM;
    let x_map = move |x: f64| LEFT + (x - x_low) / x_span * plot_width;
    let y_map = move |y: f64| TOP + (1.0 - (y - y_low) / y_span) * plot_height;
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" viewBox=\"0 0 {WIDTH} {HEIGHT}\" width=\"{WIDTH}\" height=\"{HEIGHT}\">"
    );
    let _ = write!(
        out,
        "<text class=\"plot-title\" x=\"{}\" y=\"18\">{}</text>",
        number(WIDTH / 2.0),
        escape(title)
    );
    let _ = write!(
        out,
        "<rect class=\"plot-area\" x=\"{LEFT}\" y=\"{TOP}\" width=\"{}\" height=\"{}\"/>",
        number(plot_width),
        number(plot_height)
    );
    for tick in ticks(y_low, y_high) {
        let y = y_map(tick);
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            number(WIDTH - RIGHT),
            number(y),
            number(y),
            number(LEFT - 4.0),
            number(y + 4.0),
            tick_text(tick)
        );
    }
    for tick in ticks(x_low, x_high) {
        let x = x_map(tick);
        let _ = write!(
            out,
            "<text class=\"tick\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
            number(x),
            number(HEIGHT - BOTTOM + 14.0),
            tick_text(tick)
        );
    }
    let _ = write!(
        out,
        "<text class=\"axis\" x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>",
        number(LEFT + plot_width / 2.0),
        number(HEIGHT - 6.0),
        escape(x_label)
    );
    let _ = write!(
        out,
        "<text class=\"axis\" transform=\"translate(14 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        number(TOP + plot_height / 2.0),
        escape(y_label)
    );
    (out, x_map, y_map)
}

/// Keeps at most about 1,000 points of a long series (every k-th, and the last), so a
/// 10,000-game chart stays small; the shape is unchanged at this size.
fn thin<T: Copy>(points: &[T]) -> Vec<T> {
    let step = points.len().div_ceil(1000).max(1);
    let mut kept: Vec<T> = points.iter().copied().step_by(step).collect();
    if let Some(&last) = points.last() {
        if (points.len() - 1) % step != 0 {
            kept.push(last);
        }
    }
    kept
}

impl LineChart {
    /// The chart as SVG; a chart without points says so.
    pub fn svg(&self) -> String {
        let xs = self
            .series
            .iter()
            .flat_map(|series| series.points.iter().map(|point| point.0))
            .chain(self.band.iter().map(|point| point.0));
        let ys = self
            .series
            .iter()
            .flat_map(|series| series.points.iter().map(|point| point.1))
            .chain(self.band.iter().flat_map(|point| [point.1, point.2]))
            .chain(self.guides.iter().map(|guide| guide.0));
        let finite = |values: &mut dyn Iterator<Item = f64>| -> Option<(f64, f64)> {
            values
                .filter(|value| value.is_finite())
                .fold(None, |range, value| match range {
                    None => Some((value, value)),
                    Some((low, high)) => Some((f64::min(low, value), f64::max(high, value))),
                })
        };
        let (Some(x_range), Some((y_low, y_high))) = (finite(&mut { xs }), finite(&mut { ys }))
        else {
            return format!("<p class=\"empty\">{}: no data</p>", escape(&self.title));
        };
        let pad = ((y_high - y_low) * 0.05).max(0.5);
        let (mut out, x_map, y_map) = axes(
            &self.title,
            &self.x_label,
            &self.y_label,
            x_range,
            (y_low - pad, y_high + pad),
        );
        let band = thin(&self.band);
        if band.len() >= 2 {
            let upper = band
                .iter()
                .map(|(x, _, high)| format!("{},{}", number(x_map(*x)), number(y_map(*high))));
            let lower = band
                .iter()
                .rev()
                .map(|(x, low, _)| format!("{},{}", number(x_map(*x)), number(y_map(*low))));
            let points: Vec<String> = upper.chain(lower).collect();
            let _ = write!(
                out,
                "<polygon class=\"band\" points=\"{}\"/>",
                points.join(" ")
            );
        }
        for (y, label) in &self.guides {
            let _ = write!(
                out,
                "<line class=\"guide\" x1=\"{LEFT}\" x2=\"{}\" y1=\"{}\" y2=\"{}\"/><text class=\"guide-label\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
                number(WIDTH - RIGHT),
                number(y_map(*y)),
                number(y_map(*y)),
                number(WIDTH - RIGHT - 4.0),
                number(y_map(*y) - 4.0),
                escape(label)
            );
        }
        for (index, series) in self.series.iter().enumerate() {
            let points: Vec<String> = thin(&series.points)
                .iter()
                .filter(|point| point.1.is_finite())
                .map(|(x, y)| format!("{},{}", number(x_map(*x)), number(y_map(*y))))
                .collect();
            let _ = write!(
                out,
                "<polyline class=\"line {}\" points=\"{}\"/><text class=\"legend {}\" x=\"{}\" y=\"{}\">{}</text>",
                series.class,
                points.join(" "),
                series.class,
                number(LEFT + 8.0),
                number(TOP + 14.0 + 14.0 * index as f64),
                escape(&series.name)
            );
        }
        out.push_str("</svg>");
        out
    }
}

/// A histogram of `values` in at most `bins` equal bins from 0 (or the least value) up.
pub fn histogram(title: &str, x_label: &str, values: &[f64], bins: usize) -> String {
    let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
    let Some(high) = finite.iter().copied().reduce(f64::max) else {
        return format!("<p class=\"empty\">{}: no data</p>", escape(title));
    };
    let low = finite
        .iter()
        .copied()
        .reduce(f64::min)
        .unwrap_or(0.0)
        .min(0.0);
    let bins = bins.max(1);
    let width = ((high - low) / bins as f64).max(1.0).ceil();
    let mut counts = vec![0u64; bins];
    for value in &finite {
        let bin = (((value - low) / width) as usize).min(bins - 1);
        counts[bin] += 1;
    }
    let top = counts.iter().copied().max().unwrap_or(1).max(1) as f64;
    let x_high = low + width * bins as f64;
    let (mut out, x_map, y_map) = axes(
        title,
        x_label,
        "games / moves",
        (low, x_high),
        (0.0, top * 1.05),
    );
    for (bin, &count) in counts.iter().enumerate() {
        if count == 0 {
            continue;
        }
        let start = low + width * bin as f64;
        let (x0, x1) = (x_map(start), x_map(start + width));
        let _ = write!(
            out,
            "<rect class=\"bar\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"><title>{}-{}: {count}</title></rect>",
            number(x0 + 0.5),
            number(y_map(count as f64)),
            number((x1 - x0 - 1.0).max(0.5)),
            number(y_map(0.0) - y_map(count as f64)),
            start,
            start + width
        );
    }
    let _ = write!(
        out,
        "<text class=\"legend\" x=\"{}\" y=\"{}\">{} values, bin width {}</text></svg>",
        number(LEFT + 8.0),
        number(TOP + 14.0),
        finite.len(),
        width
    );
    out
}

#[cfg(test)]
mod tests {
    use super::{thin, ticks};

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        assert_eq!(ticks(0.0, 10.0), vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
        // A span of 6 over about five steps: steps of 2.
        assert_eq!(ticks(-3.0, 3.0), vec![-2.0, 0.0, 2.0]);
        assert_eq!(ticks(0.5, 3.2), vec![1.0, 2.0, 3.0]);
    }

    #[test]
    fn thinning_keeps_the_ends() {
        let points: Vec<usize> = (0..2500).collect();
        let kept = thin(&points);
        assert!(kept.len() <= 1001, "{}", kept.len());
        assert_eq!(kept.first(), Some(&0));
        assert_eq!(kept.last(), Some(&2499));
        assert_eq!(thin(&[1, 2, 3]), vec![1, 2, 3]);
    }
}
