//! What the check writes: one human line per target ([`line`]), the report files ([`files`]) and the
//! JUnit XML ([`junit`]). Everything passes through the [`crate::redact::Redactor`] first.

pub mod console;
pub mod files;
pub mod junit;
pub mod line;
