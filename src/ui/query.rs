//! The page's own address: its origin and its query parameters (the automation contract's input).

/// The page's origin, e.g. `http://127.0.0.1:8787`.
pub fn page_origin() -> String {
    web_sys::window().and_then(|w| w.location().origin().ok()).unwrap_or_default()
}

/// The page's query parameters, percent-decoded, in order.
pub fn query_pairs() -> Vec<(String, String)> {
    let search = web_sys::window().and_then(|w| w.location().search().ok()).unwrap_or_default();
    let Ok(params) = web_sys::UrlSearchParams::new_with_str(&search) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if let Ok(Some(entries)) = js_sys::try_iter(&params) {
        for pair in entries.flatten() {
            let pair: js_sys::Array = wasm_bindgen::JsCast::unchecked_into(pair);
            out.push((pair.get(0).as_string().unwrap_or_default(), pair.get(1).as_string().unwrap_or_default()));
        }
    }
    out
}
