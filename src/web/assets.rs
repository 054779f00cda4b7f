//! The page's files, embedded in the binary: the page works with no network and the
//! server reads no file to serve it.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// One embedded file: its path under `/`, its media type and its bytes.
pub struct Asset {
    /// The path it is served at (`/` for the page).
    pub path: &'static str,
    /// Its `Content-Type`.
    pub media_type: &'static str,
    /// Its bytes.
    pub bytes: &'static [u8],
}

/// Every file the page needs.
pub const ASSETS: [Asset; 3] = [
    Asset {
        path: "/",
        media_type: "text/html; charset=utf-8",
        bytes: include_bytes!("assets/index.html"),
    },
    Asset {
        path: "/app.js",
        media_type: "text/javascript; charset=utf-8",
        bytes: include_bytes!("assets/app.js"),
    },
    Asset {
        path: "/style.css",
        media_type: "text/css; charset=utf-8",
        bytes: include_bytes!("assets/style.css"),
    },
];

impl Asset {
    /// The file as a response.
    pub fn response(&self) -> Response {
        (
            [
                (header::CONTENT_TYPE, self.media_type),
                (header::CACHE_CONTROL, "no-cache"),
                (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            ],
            self.bytes,
        )
            .into_response()
    }
}
