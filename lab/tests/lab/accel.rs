//! `accel=no`: the `X-Accel-Buffering: no` header that tells nginx not to buffer this response.

use crate::client::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn accel_adds_x_accel_buffering() {
    let lab = start_lab(None).await;
    let path = "/v1/chat/completions?tokens=2&cadence_ms=1&first_ms=0";
    let no = get(lab, &format!("{path}&accel=no")).await;
    assert_eq!(no.header("x-accel-buffering"), Some("no"));
    assert!(no.is_chunked());
    let yes = get(lab, &format!("{path}&accel=yes")).await;
    assert_eq!(yes.header("x-accel-buffering"), Some("yes"));
    assert_eq!(get(lab, path).await.header("x-accel-buffering"), None);
}
