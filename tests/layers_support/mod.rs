//! The crate reader of `tests/layers.rs`: the module tree from `src/lib.rs` (mod
//! declarations, `#[path]`, inline modules) and every module's imports and re-exports,
//! read with comments and string literals blanked. Plain string handling, no parser
//! crate: it reads what `rustfmt` writes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A module: its path from the crate root and where its code is.
#[derive(Clone, Debug)]
pub struct Module {
    pub path: Vec<String>,
    /// The file, relative to the source root.
    pub file: PathBuf,
    /// Byte range of the module's code in the file (a whole file, or an inline module's
    /// braces).
    pub span: (usize, usize),
}

/// One import: the absolute path it names and the line it is on.
#[derive(Clone, Debug)]
pub struct Import {
    pub path: Vec<String>,
    pub line: usize,
    pub text: String,
}

/// Everything the checks read, built from a source root.
pub struct Crate {
    pub root: PathBuf,
    pub modules: Vec<Module>,
    /// Source text of each file with comments and literals blanked (same length, so byte
    /// offsets and line numbers hold).
    pub code: BTreeMap<PathBuf, String>,
    /// Per module (index into `modules`): its imports, and its re-exports by name.
    pub imports: Vec<Vec<Import>>,
    pub exports: Vec<BTreeMap<String, Import>>,
    /// Macros exported at the crate root, by name: the module that defines each.
    pub macros: BTreeMap<String, usize>,
}

/// Blanks comments, string and character literals with spaces (newlines kept).
fn blank_comments_and_literals(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = bytes.to_vec();
    let blank = |out: &mut Vec<u8>, from: usize, to: usize| {
        for byte in &mut out[from..to] {
            if *byte != b'\n' {
                *byte = b' ';
            }
        }
    };
    let mut index = 0;
    while index < bytes.len() {
        let rest = &bytes[index..];
        if rest.starts_with(b"//") {
            let end = rest
                .iter()
                .position(|&b| b == b'\n')
                .map_or(bytes.len(), |n| index + n);
            blank(&mut out, index, end);
            index = end;
        } else if rest.starts_with(b"/*") {
            let mut depth = 0;
            let mut end = index;
            while end < bytes.len() {
                if bytes[end..].starts_with(b"/*") {
                    depth += 1;
                    end += 2;
                } else if bytes[end..].starts_with(b"*/") {
                    depth -= 1;
                    end += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    end += 1;
                }
            }
            blank(&mut out, index, end);
            index = end;
        } else if let Some(hashes) = raw_string_start(rest) {
            let open = index + 2 + hashes;
            let close: Vec<u8> = std::iter::once(b'"').chain(vec![b'#'; hashes]).collect();
            let end = bytes[open..]
                .windows(close.len())
                .position(|window| window == close.as_slice())
                .map_or(bytes.len(), |n| open + n + close.len());
            blank(&mut out, index, end);
            index = end;
        } else if rest[0] == b'"' {
            let mut end = index + 1;
            while end < bytes.len() && bytes[end] != b'"' {
                end += if bytes[end] == b'\\' { 2 } else { 1 };
            }
            blank(&mut out, index, (end + 1).min(bytes.len()));
            index = end + 1;
        } else if rest[0] == b'\'' {
            // A character literal ('x', '\n', '\''), or else a lifetime left as code.
            let end = if rest.get(1) == Some(&b'\\') {
                rest.iter().skip(2).position(|&b| b == b'\'').map(|n| n + 3)
            } else {
                let width = std::str::from_utf8(&rest[1..rest.len().min(5)])
                    .ok()
                    .or_else(|| std::str::from_utf8(&rest[1..rest.len().min(2)]).ok())
                    .and_then(|tail| tail.chars().next())
                    .map_or(1, char::len_utf8);
                (rest.get(1 + width) == Some(&b'\'')).then_some(2 + width)
            };
            match end {
                Some(length) => {
                    blank(&mut out, index, index + length);
                    index += length;
                }
                None => index += 1,
            }
        } else {
            index += 1;
        }
    }
    String::from_utf8(out).expect("only ASCII spaces replace whole characters")
}

/// The number of `#` of a raw string starting here (`r"`, `r#"`, `br"`), if one does.
fn raw_string_start(rest: &[u8]) -> Option<usize> {
    let rest = rest.strip_prefix(b"b").unwrap_or(rest);
    let after = rest.strip_prefix(b"r")?;
    let hashes = after.iter().take_while(|&&b| b == b'#').count();
    (after.get(hashes) == Some(&b'"')).then_some(hashes)
}

fn is_ident(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The 1-based line of byte `offset` in `text`.
fn line_of(text: &str, offset: usize) -> usize {
    text[..offset].bytes().filter(|&b| b == b'\n').count() + 1
}

/// The byte after the brace that closes the one at `open`.
fn closing_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (offset, byte) in code.bytes().enumerate().skip(open) {
        match byte {
            b'{' => depth += 1,
            b'}' => {
                depth -= 1;
                if depth == 0 {
                    return offset + 1;
                }
            }
            _ => {}
        }
    }
    code.len()
}

/// Every `use` tree expanded into plain paths (`a::{b, c::d}` gives `a::b`, `a::c::d`),
/// each with the name it binds (`self` gives the prefix).
fn expand_use_tree(tree: &str) -> Vec<(Vec<String>, String)> {
    let tree: String = tree.split_whitespace().collect::<Vec<_>>().join(" ");
    let Some(open) = tree.find('{') else {
        let (path, alias) = match tree.split_once(" as ") {
            Some((path, alias)) => (path.trim(), Some(alias.trim())),
            None => (tree.trim(), None),
        };
        let mut segments: Vec<String> = path
            .split("::")
            .map(|segment| segment.trim().to_string())
            .filter(|segment| !segment.is_empty())
            .collect();
        if segments.last().is_some_and(|last| last == "self") {
            segments.pop();
        }
        let name = alias
            .map(str::to_string)
            .or_else(|| segments.last().cloned())
            .unwrap_or_default();
        return vec![(segments, name)];
    };
    let prefix = &tree[..open];
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0, 0);
    for (offset, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..offset]);
                start = offset + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|part| !part.trim().is_empty())
        .flat_map(|part| expand_use_tree(&format!("{prefix}{}", part.trim())))
        .collect()
}

impl Crate {
    /// Reads the crate whose root file is `root/lib.rs`.
    pub fn read(root: &Path) -> Crate {
        let mut krate = Crate {
            root: root.to_path_buf(),
            modules: Vec::new(),
            code: BTreeMap::new(),
            imports: Vec::new(),
            exports: Vec::new(),
            macros: BTreeMap::new(),
        };
        krate.add_file(Vec::new(), PathBuf::from("lib.rs"));
        for index in 0..krate.modules.len() {
            krate.read_imports(index);
        }
        krate
    }

    /// Adds the module in `file` and, recursively, its file and inline modules.
    fn add_file(&mut self, path: Vec<String>, file: PathBuf) {
        let full = self.root.join(&file);
        let text = std::fs::read_to_string(&full)
            .unwrap_or_else(|error| panic!("{}: {error}", full.display()));
        let code = blank_comments_and_literals(&text);
        let length = code.len();
        self.code.insert(file.clone(), code);
        self.add_module(path, file, (0, length), &text);
    }

    fn add_module(&mut self, path: Vec<String>, file: PathBuf, span: (usize, usize), text: &str) {
        let index = self.modules.len();
        self.modules.push(Module {
            path: path.clone(),
            file: file.clone(),
            span,
        });
        let code = self.code[&file].clone();
        let inner = self.inner_modules(&code, span);
        let mut offset = span.0;
        let mut path_attribute: Option<String> = None;
        while offset < span.1 {
            let line_end = code[offset..span.1]
                .find('\n')
                .map_or(span.1, |n| offset + n);
            let line = code[offset..line_end].trim();
            let original = text[offset..line_end].trim();
            let inside_inner = inner
                .iter()
                .any(|&(start, end, _)| offset > start && offset < end);
            if inside_inner {
                offset = line_end + 1;
                continue;
            }
            if let Some(rest) = original.strip_prefix("#[path = \"") {
                path_attribute = rest.split('"').next().map(str::to_string);
            } else if line.starts_with("#[macro_export]") {
                let next = code[line_end..span.1].trim_start();
                if let Some(rest) = next.strip_prefix("macro_rules!") {
                    let name: String = rest
                        .trim_start()
                        .bytes()
                        .take_while(|&b| is_ident(b))
                        .map(char::from)
                        .collect();
                    self.macros.insert(name, index);
                }
            } else if let Some(name) = declared_file_module(line) {
                let child = match path_attribute.take() {
                    Some(relative) => file.parent().unwrap_or(Path::new("")).join(relative),
                    None => child_file(&self.root, &file, &name),
                };
                let mut child_path = path.clone();
                child_path.push(name);
                self.add_file(child_path, child);
            } else if !line.starts_with("#[") {
                path_attribute = None;
            }
            offset = line_end + 1;
        }
        for (start, end, name) in inner {
            let mut child_path = path.clone();
            child_path.push(name);
            self.add_module(child_path, file.clone(), (start, end), text);
        }
    }

    /// The inline modules directly inside `span`: (its opening brace, the byte after its
    /// closing one, name).
    fn inner_modules(&self, code: &str, span: (usize, usize)) -> Vec<(usize, usize, String)> {
        let mut found = Vec::new();
        // An inline module's own span starts at its brace.
        let mut offset = if span.0 == 0 { 0 } else { span.0 + 1 };
        while let Some(at) = code[offset..span.1].find("mod ") {
            let start = offset + at;
            offset = start + 4;
            if start > 0 && is_ident(code.as_bytes()[start - 1]) {
                continue;
            }
            let rest = code[start + 4..span.1].trim_start();
            let name: String = rest
                .bytes()
                .take_while(|&b| is_ident(b))
                .map(char::from)
                .collect();
            let after = rest[name.len()..].trim_start();
            if name.is_empty() || !after.starts_with('{') {
                continue;
            }
            let open = span.1 - after.len();
            let end = closing_brace(code, open);
            found.push((open, end, name));
            offset = end;
        }
        found
    }

    /// The child modules of `module` by name.
    fn children(&self, module: usize) -> BTreeSet<String> {
        let path = &self.modules[module].path;
        self.modules
            .iter()
            .filter(|other| other.path.len() == path.len() + 1 && other.path.starts_with(path))
            .filter_map(|other| other.path.last().cloned())
            .collect()
    }

    /// Reads the imports and re-exports of one module.
    fn read_imports(&mut self, index: usize) {
        let module = self.modules[index].clone();
        let code = self.code[&module.file].clone();
        let inner = self.inner_modules(&code, module.span);
        let children = self.children(index);
        let own = |offset: usize| {
            offset >= module.span.0
                && offset < module.span.1
                && !inner
                    .iter()
                    .any(|&(start, end, _)| offset > start && offset < end)
        };
        let mut imports = Vec::new();
        let mut exports = BTreeMap::new();
        let mut use_spans = Vec::new();
        let mut search = module.span.0;
        while let Some(at) = code[search..module.span.1].find("use ") {
            let start = search + at;
            search = start + 4;
            if (start > 0 && is_ident(code.as_bytes()[start - 1])) || !own(start) {
                continue;
            }
            let end = code[start..].find(';').map_or(code.len(), |n| start + n);
            let before = code[module.span.0..start].trim_end();
            let restricted = before.ends_with(')') && {
                let open = before.rfind('(').unwrap_or(0);
                before[..open].trim_end().ends_with("pub")
            };
            let reexport = before.ends_with("pub") || restricted;
            use_spans.push((start, end));
            search = end;
            let line = line_of(&code, start);
            for (segments, name) in expand_use_tree(&code[start + 4..end]) {
                let Some(path) = self.absolute(&module.path, &children, &segments) else {
                    continue;
                };
                let import = Import {
                    path,
                    line,
                    text: segments.join("::"),
                };
                if reexport && name != "*" {
                    exports.insert(name, import);
                } else {
                    imports.push(import);
                }
            }
        }
        let in_use = |offset: usize| {
            use_spans
                .iter()
                .any(|&(start, end)| offset >= start && offset < end)
        };
        let bytes = code.as_bytes();
        let mut offset = module.span.0;
        while offset < module.span.1 {
            let starts_word =
                offset == 0 || !(is_ident(bytes[offset - 1]) || bytes[offset - 1] == b':');
            if starts_word && own(offset) && !in_use(offset) && is_ident(bytes[offset]) {
                let end = (offset..module.span.1)
                    .find(|&at| !(is_ident(bytes[at]) || bytes[at] == b':'))
                    .unwrap_or(module.span.1);
                let text = code[offset..end].trim_end_matches(':');
                let segments: Vec<String> = text.split("::").map(str::to_string).collect();
                let head = segments[0].as_str();
                let is_visibility = code[..offset].trim_end().ends_with("(in");
                if segments.len() > 1
                    && !is_visibility
                    && (matches!(head, "crate" | "super" | "self") || children.contains(head))
                    && let Some(path) = self.absolute(&module.path, &children, &segments)
                {
                    imports.push(Import {
                        path,
                        line: line_of(&code, offset),
                        text: text.to_string(),
                    });
                }
                offset = end.max(offset + 1);
            } else {
                offset += 1;
            }
        }
        // A re-export the module itself uses is an import of it too.
        let own_code: String = code[module.span.0..module.span.1]
            .char_indices()
            .map(|(at, c)| {
                let offset = module.span.0 + at;
                if own(offset) && !in_use(offset) {
                    c
                } else {
                    ' '
                }
            })
            .collect();
        let own_code = own_code
            .lines()
            .filter(|line| declared_file_module(line.trim()).is_none())
            .collect::<Vec<_>>()
            .join("\n");
        for (name, import) in &exports {
            if contains_word(&own_code, name) {
                imports.push(import.clone());
            }
        }
        self.imports.push(imports);
        self.exports.push(exports);
    }

    /// The absolute path (from the crate root) of `segments` written in module `path`, or
    /// `None` for a path into another crate.
    fn absolute(
        &self,
        path: &[String],
        children: &BTreeSet<String>,
        segments: &[String],
    ) -> Option<Vec<String>> {
        let head = segments.first()?.as_str();
        let mut absolute: Vec<String>;
        let mut rest = segments;
        match head {
            "crate" | "$crate" => {
                absolute = Vec::new();
                rest = &segments[1..];
            }
            "super" | "self" => {
                absolute = path.to_vec();
                while let Some(first) = rest.first() {
                    match first.as_str() {
                        "super" => {
                            absolute.pop();
                        }
                        "self" => {}
                        _ => break,
                    }
                    rest = &rest[1..];
                }
            }
            _ if children.contains(head) => absolute = path.to_vec(),
            _ => return None,
        }
        absolute.extend(rest.iter().filter(|segment| *segment != "*").cloned());
        Some(absolute)
    }

    /// The module an absolute path lands in: the deepest module on it, through
    /// re-exports to where the name is defined; root macros to their module.
    pub fn resolve(&self, path: &[String]) -> Option<usize> {
        self.resolve_within(path, 0)
    }

    fn resolve_within(&self, path: &[String], depth: usize) -> Option<usize> {
        if path.len() == 1
            && let Some(&module) = self.macros.get(&path[0])
        {
            return Some(module);
        }
        let (module, used) = (0..=path.len()).rev().find_map(|length| {
            self.modules
                .iter()
                .position(|module| module.path == path[..length])
                .map(|module| (module, length))
        })?;
        if let Some(name) = path.get(used)
            && let Some(export) = self.exports[module].get(name)
            && depth < 16
        {
            let mut routed = export.path.clone();
            routed.extend(path[used + 1..].iter().cloned());
            return self.resolve_within(&routed, depth + 1).or(Some(module));
        }
        Some(module)
    }

    /// Where a module's code is, for messages: `src/file.rs` or `src/file.rs::tests`.
    pub fn name(&self, module: usize) -> String {
        let module_ = &self.modules[module];
        let file = Path::new("src").join(&module_.file).display().to_string();
        let file_path = self
            .modules
            .iter()
            .find(|other| other.file == module_.file && other.span.0 == 0);
        match file_path {
            Some(whole) if whole.path != module_.path => {
                format!("{file}::{}", module_.path[whole.path.len()..].join("::"))
            }
            _ => file,
        }
    }

    pub fn file_of(&self, module: usize) -> String {
        Path::new("src")
            .join(&self.modules[module].file)
            .display()
            .to_string()
    }
}

/// The module a `mod name;` line declares (with any visibility), if it is one.
pub fn declared_file_module(line: &str) -> Option<String> {
    let rest = line.strip_prefix("pub").map_or(line, |rest| {
        let rest = rest.trim_start();
        match rest.strip_prefix('(') {
            Some(inside) => inside.split_once(')').map_or(rest, |(_, after)| after),
            None => rest,
        }
    });
    let name = rest
        .trim_start()
        .strip_prefix("mod ")?
        .trim()
        .strip_suffix(';')?;
    name.bytes().all(is_ident).then(|| name.to_string())
}

/// The file of module `name` declared in `file`: `name.rs` or `name/mod.rs` beside a
/// `mod.rs` or `lib.rs`, else in the folder named after the file.
fn child_file(root: &Path, file: &Path, name: &str) -> PathBuf {
    let folder = match file.file_name().and_then(|name| name.to_str()) {
        Some("mod.rs" | "lib.rs" | "main.rs") => {
            file.parent().unwrap_or(Path::new("")).to_path_buf()
        }
        _ => file.with_extension(""),
    };
    let flat = folder.join(format!("{name}.rs"));
    if root.join(&flat).exists() {
        flat
    } else {
        folder.join(name).join("mod.rs")
    }
}

fn contains_word(text: &str, word: &str) -> bool {
    let bytes = text.as_bytes();
    text.match_indices(word).any(|(at, _)| {
        let before = at.checked_sub(1).map(|index| bytes[index]);
        let after = bytes.get(at + word.len()).copied();
        !before.is_some_and(|b| is_ident(b) || b == b':') && !after.is_some_and(is_ident)
    })
}
