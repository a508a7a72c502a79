//! Text inside SVG and HTML markup.

/// Escapes text for SVG or HTML content and attribute values: the one escape of the
/// pictures and the report page.
pub fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}
