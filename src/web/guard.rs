//! Who may talk to the server: on the loopback only requests naming a loopback
//! host (another site's page reaching it through a name of its own is refused), and
//! a WebSocket only from the server's own page (its `Origin` is the `Host` served).

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::error::ApiError;
use super::App;

/// Refuse (403) a request whose `Host` is not a loopback name while the server
/// listens on the loopback only.
pub async fn check_host(State(app): State<App>, request: Request, next: Next) -> Response {
    if app.shared.loopback_only {
        let host = request
            .headers()
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .unwrap_or("");
        if !is_loopback_host(host) {
            return ApiError {
                status: StatusCode::FORBIDDEN,
                message: format!("Host {host:?} is not this machine's loopback"),
            }
            .into_response();
        }
    }
    next.run(request).await
}

/// Whether `host` (a `Host` header: name and optional port) names the loopback.
pub fn is_loopback_host(host: &str) -> bool {
    let name = match host.strip_prefix('[') {
        Some(rest) => rest.split(']').next().unwrap_or(""),
        None => host.rsplit_once(':').map_or(host, |(name, _)| name),
    };
    name.eq_ignore_ascii_case("localhost")
        || name
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

/// `Ok` when the request's `Origin` is the page of the `Host` it is sent to
/// (`http://HOST`), else the 403 saying why.
pub fn check_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let get = |name| headers.get(name).and_then(|h| h.to_str().ok());
    let (origin, host) = (get(header::ORIGIN), get(header::HOST));
    match (origin, host) {
        (Some(o), Some(h)) if o.eq_ignore_ascii_case(&format!("http://{h}")) => Ok(()),
        _ => Err(ApiError {
            status: StatusCode::FORBIDDEN,
            message: format!(
                "the WebSocket is only for this server's page: Origin {:?}, Host {:?}",
                origin.unwrap_or(""),
                host.unwrap_or("")
            ),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_names_and_origins() {
        for ok in [
            "localhost:8080",
            "127.0.0.1:1",
            "[::1]:80",
            "LOCALHOST",
            "127.0.0.2",
        ] {
            assert!(is_loopback_host(ok), "{ok}");
        }
        for bad in ["evil.example:80", "10.0.0.1:80", "", "[::2]:1"] {
            assert!(!is_loopback_host(bad), "{bad}");
        }
        let mut h = HeaderMap::new();
        h.insert(header::HOST, "127.0.0.1:9".parse().unwrap());
        assert!(check_origin(&h).is_err());
        h.insert(header::ORIGIN, "http://127.0.0.1:9".parse().unwrap());
        assert!(check_origin(&h).is_ok());
        h.insert(header::ORIGIN, "http://evil.example".parse().unwrap());
        assert_eq!(check_origin(&h).unwrap_err().status, StatusCode::FORBIDDEN);
    }
}
