//! The API's errors: a status and a sentence saying what is wrong and where, sent as
//! `{"error": "…"}`; and the reading of a JSON body into them.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::de::DeserializeOwned;

/// A request the API refuses: its status (4xx) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The HTTP status.
    pub status: StatusCode,
    /// What is wrong and where.
    pub message: String,
}

impl ApiError {
    /// A bad request (400): a body, line, FEN or move that cannot be used.
    pub fn bad(message: impl std::fmt::Display) -> ApiError {
        ApiError {
            status: StatusCode::BAD_REQUEST,
            message: message.to_string(),
        }
    }

    /// An unknown path (404).
    pub fn not_found(path: &str) -> ApiError {
        ApiError {
            status: StatusCode::NOT_FOUND,
            message: format!("no such page or API: {path}"),
        }
    }

    /// A path asked with a method it does not take (405).
    pub fn method(method: &str, path: &str) -> ApiError {
        ApiError {
            status: StatusCode::METHOD_NOT_ALLOWED,
            message: format!("{path} does not take {method}"),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (
            self.status,
            Json(serde_json::json!({ "error": self.message })),
        )
            .into_response()
    }
}

/// The JSON body of a request as a `T`: a body over the limit is 413, a body that is
/// not JSON or not of that shape is 400 with serde's words (line and column).
pub fn json_body<T: DeserializeOwned>(body: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = body.map_err(|r| ApiError {
        status: r.status(),
        message: match r.status() {
            StatusCode::PAYLOAD_TOO_LARGE => format!(
                "the request body is larger than {} bytes",
                super::MAX_BODY_BYTES
            ),
            _ => r.body_text(),
        },
    })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("bad JSON body: {e}")))
}
