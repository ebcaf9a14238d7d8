//! Triage of a failed call: why it failed and what to change, from the request URL ([`url`]: typos the
//! user can fix before sending, and `missing_v1` from the probes), the HTTP error answer ([`http`]: auth,
//! unknown model, rate limit, a proxy's error page) and the network failure ([`net`]: CORS vs
//! unreachable, told apart by the page's no-cors probe).

pub mod http;
pub mod net;
pub mod url;
