//! `damas web`: the browser board's server. It serves the embedded page and a JSON
//! API over HTTP (axum on tokio): the page holds the game and sends its line with
//! every request, the server replays it with the rules crate and answers; searches
//! (analysis, the engine's moves, reviews) stream over one WebSocket per tab.
//!
//! [`router`] builds the service apart from any socket, [`run`] serves it on a
//! bound listener until a shutdown future completes, and [`Server`] does both on a
//! thread of its own (what tests use). Requests are bounded ([`MAX_BODY_BYTES`],
//! [`socket::MAX_FRAME_BYTES`], [`socket::MAX_MESSAGES_PER_SECOND`],
//! [`socket::MAX_SOCKETS`]), and the server reads and writes no file.

pub mod assets;
pub mod engine;
pub mod error;
pub mod guard;
pub mod jobs;
pub mod line;
pub mod pdn;
pub mod position;
pub mod score;
pub mod setup;
pub mod socket;

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::DefaultBodyLimit;
use axum::http::{Method, Uri};
use axum::routing::{get, post, MethodRouter};
use axum::{Json, Router};
use serde_json::Value;
use tokio::sync::{watch, Semaphore};

use self::engine::EngineHost;
use self::error::{json_body, ApiError};

/// The largest request body accepted (larger: 413).
pub const MAX_BODY_BYTES: usize = 1 << 20;

/// What the server shares between requests: the engine, the socket slots and the
/// shutdown signal the open sockets watch.
#[derive(Clone)]
pub struct App {
    shared: Arc<Shared>,
}

struct Shared {
    engine: EngineHost,
    sockets: Arc<Semaphore>,
    shutdown: watch::Sender<bool>,
    loopback_only: bool,
}

impl App {
    /// The server of `engine`; with `loopback_only`, requests must name a loopback
    /// host (`localhost`, `127.0.0.1`, `[::1]`), which keeps pages of other sites
    /// from reaching it through a name that resolves to this machine.
    pub fn new(engine: EngineHost, loopback_only: bool) -> App {
        App {
            shared: Arc::new(Shared {
                engine,
                sockets: Arc::new(Semaphore::new(socket::MAX_SOCKETS)),
                shutdown: watch::channel(false).0,
                loopback_only,
            }),
        }
    }

    /// The shared engine.
    pub fn engine(&self) -> &EngineHost {
        &self.shared.engine
    }
}

/// The service: the embedded page, the JSON API and the WebSocket, every other path
/// 404 and every other method 405, each with a JSON error.
pub fn router(app: App) -> Router {
    let mut router = Router::new();
    for (i, asset) in assets::ASSETS.iter().enumerate() {
        router = router.route(
            asset.path,
            only(get(move || async move { assets::ASSETS[i].response() })),
        );
    }
    router
        .route("/api/setup", only(get(|| async { Json(setup::setup()) })))
        .route("/api/position", only(post(api_position)))
        .route("/api/book", only(post(api_book)))
        .route("/api/fen", only(post(api_fen)))
        .route("/api/pdn/read", only(post(api_pdn_read)))
        .route("/api/pdn/write", only(post(api_pdn_write)))
        .route("/api/ws", only(get(socket::upgrade)))
        .fallback(|uri: Uri| async move { ApiError::not_found(uri.path()) })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            guard::check_host,
        ))
        .with_state(app)
}

/// `route` answering any method it does not take with a JSON 405.
fn only(route: MethodRouter<App>) -> MethodRouter<App> {
    route.fallback(|method: Method, uri: Uri| async move {
        ApiError::method(method.as_str(), uri.path())
    })
}

type Body = Result<Bytes, BytesRejection>;

async fn api_position(body: Body) -> Result<Json<Value>, ApiError> {
    position::position(&json_body(body)?).map(Json)
}

async fn api_book(body: Body) -> Result<Json<Value>, ApiError> {
    position::book(&json_body(body)?).map(Json)
}

async fn api_fen(body: Body) -> Result<Json<Value>, ApiError> {
    position::fen(&json_body(body)?).map(Json)
}

async fn api_pdn_read(body: Body) -> Result<Json<Value>, ApiError> {
    pdn::read(&json_body(body)?).map(Json)
}

async fn api_pdn_write(body: Body) -> Result<Json<Value>, ApiError> {
    pdn::write(&json_body(body)?).map(Json)
}

/// Serve `app` on `listener` until `shutdown` completes, then close the open
/// sockets (stopping their searches) and let the requests under way finish.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let signal = app.shared.shutdown.clone();
    let service = router(app).into_make_service_with_connect_info::<SocketAddr>();
    axum::serve(listener, service)
        .with_graceful_shutdown(async move {
            shutdown.await;
            signal.send_replace(true);
        })
        .await
}

/// [`serve`] on a listener bound beforehand (non-blocking is set here), on a
/// runtime of its own; returns when `shutdown` completes and the server is closed.
pub fn run(
    listener: std::net::TcpListener,
    app: App,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    listener.set_nonblocking(true)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .thread_name("damas-web")
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::from_std(listener)?;
        serve(listener, app, shutdown).await
    })
}

/// Completes at Ctrl-C (SIGINT); if the signal cannot be watched, never.
pub async fn ctrl_c() {
    if tokio::signal::ctrl_c().await.is_err() {
        std::future::pending::<()>().await;
    }
}

/// A server running on a thread of its own until [`Server::stop`].
pub struct Server {
    addr: SocketAddr,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
    thread: Option<std::thread::JoinHandle<std::io::Result<()>>>,
}

impl Server {
    /// Bind `addr` (port 0: a free one) and serve `app` there.
    pub fn start(addr: SocketAddr, app: App) -> std::io::Result<Server> {
        let listener = std::net::TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("damas-web".into())
            .spawn(move || {
                run(listener, app, async move {
                    let _ = stopped.await;
                })
            })?;
        Ok(Server {
            addr,
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// The address served.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// Stop serving: open sockets are closed and their searches stopped.
    pub fn stop(mut self) -> std::io::Result<()> {
        self.shut()
    }

    fn shut(&mut self) -> std::io::Result<()> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        match self.thread.take().map(|t| t.join()) {
            Some(Ok(result)) => result,
            Some(Err(_)) => Err(std::io::Error::other("the server thread panicked")),
            None => Ok(()),
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.shut();
    }
}
