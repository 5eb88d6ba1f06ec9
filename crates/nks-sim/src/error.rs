//! Error answers.
//!
//! The real API's error body is undocumented (digest §7); the simulator fixes one shape so the
//! console has something stable to render:
//!
//! ```json
//! {"message": "node_config.boot_volume.size: must be between 64 and 512"}
//! ```
//!
//! When one request field is at fault the message starts with its dotted path (array entries as
//! `labels[2]`), then `": "`, then the reason; otherwise it is just the reason. Statuses:
//! 400 malformed JSON / bad query parameter / bad cursor / `limit` outside 10–100,
//! 401 missing or unknown API key, 404 unknown (or deleted) resource,
//! 409 another operation is in progress on the resource (the message names its id),
//! 422 validation, quota and capacity refusals.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub status: StatusCode,
    pub message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, message)
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(StatusCode::NOT_FOUND, format!("{what} not found"))
    }

    /// A 422 blaming one request field.
    pub fn field(path: impl AsRef<str>, reason: impl AsRef<str>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}: {}", path.as_ref(), reason.as_ref()),
        )
    }

    pub fn unprocessable(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// The resource is busy; clients (and the SDKs) treat 409 as "retry later", so say which
    /// operation to wait for.
    pub fn busy(op_id: &str) -> Self {
        Self::new(
            StatusCode::CONFLICT,
            format!("another operation is in progress on this resource: {op_id}"),
        )
    }

    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, message)
    }
}

pub fn json_message(status: StatusCode, message: &str) -> Response {
    (
        status,
        axum::Json(serde_json::json!({ "message": message })),
    )
        .into_response()
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        json_message(self.status, &self.message)
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
