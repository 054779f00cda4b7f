//! `damas web`'s server end to end on the loopback: every endpoint's status and body,
//! bad and oversize requests, the WebSocket's analysis (its live progress included),
//! moves and review, its origin check, limits and the sockets it refuses, and PDN
//! with variations through the API.

use std::net::TcpStream;
use std::time::Duration;

use serde_json::{json, Value};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

use damas::web::engine::EngineHost;
use damas::web::{App, Server};

/// A server on a free port of the loopback with a small table.
fn server() -> Server {
    let mut settings = damas_engine::settings::EngineSettings::default();
    settings.set("hash", "8").unwrap();
    let app = App::new(EngineHost::new(settings, Vec::new()), true);
    Server::start("127.0.0.1:0".parse().unwrap(), app).expect("serve")
}

/// A request's status and JSON body (`Value::Null` when the body is not JSON).
fn call(s: &Server, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    let url = format!("http://{}{path}", s.addr());
    let request = ureq::request(method, &url).timeout(Duration::from_secs(60));
    let answer = match body {
        Some(b) => request
            .set("Content-Type", "application/json")
            .send_string(b),
        None => request.call(),
    };
    let response = match answer {
        Ok(r) => r,
        Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{method} {path}: {e}"),
    };
    let status = response.status();
    let text = response.into_string().unwrap_or_default();
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

fn post(s: &Server, path: &str, body: &Value) -> (u16, Value) {
    call(s, "POST", path, Some(&body.to_string()))
}

fn start_line(moves: &[&str]) -> Value {
    json!({"variant": "brazilian", "start": null, "moves": moves})
}

#[test]
fn the_page_setup_and_positions_are_served() {
    let s = server();
    let page = ureq::get(&format!("http://{}/", s.addr())).call().unwrap();
    assert!(page.content_type().starts_with("text/html"));
    let (status, setup) = call(&s, "GET", "/api/setup", None);
    assert_eq!(status, 200);
    assert_eq!(setup["variants"], json!(["brazilian", "russian"]));
    assert_eq!(setup["strengths"].as_array().unwrap().len(), 10);
    assert_eq!(setup["default_strength"], 10);
    assert_eq!(setup["square_names"].as_array().unwrap().len(), 32);
    let ballot = &setup["ballots"]["russian"][0];
    let (status, after) = post(
        &s,
        "/api/position",
        &json!({"variant": "russian", "start": ballot["start"], "moves": ballot["moves"]}),
    );
    assert_eq!(status, 200, "{after}");
    assert_eq!(after["moves"].as_array().unwrap().len(), 3, "{after}");

    let (status, p) = post(&s, "/api/position", &start_line(&["c3-d4", "f6-e5"]));
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["side"], "white");
    assert_eq!(p["board"].as_array().unwrap().len(), 32);
    // The capture is forced: one legal move, its man marked.
    assert_eq!(p["legal"][0]["id"], "d4xf6");
    assert_eq!(p["legal"][0]["path"], json!([18, 11]));
    assert_eq!(p["legal"][0]["captured"], json!([15]));
    assert_eq!(p["must_capture"], json!([18]));
    assert_eq!(p["moves"][1], json!({"text": "f6-e5", "number": "1..."}));
    assert_eq!(p["outcome"], Value::Null);
    let numeric = json!({"variant": "brazilian", "moves": ["c3-d4"], "notation": "numeric"});
    let (_, n) = post(&s, "/api/position", &numeric);
    assert_eq!(n["moves"][0]["text"], "22-18");

    let (status, book) = post(&s, "/api/book", &start_line(&[]));
    assert_eq!(status, 200);
    assert!(!book["moves"].as_array().unwrap().is_empty(), "{book}");
    let (status, fen) = post(&s, "/api/fen", &json!({"fen": "W:W21-32:B1-12"}));
    assert_eq!(
        (status, fen["fen"].as_str().unwrap().starts_with("W:Wa1")),
        (200, true)
    );
}

#[test]
fn bad_requests_get_a_status_and_a_message() {
    let s = server();
    let (status, e) = post(&s, "/api/position", &start_line(&["c3-d4", "c3-d4"]));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("moves[1]"), "{e}");
    let (status, e) = call(&s, "POST", "/api/position", Some("{\"variant\": "));
    assert_eq!(status, 400);
    assert!(
        e["error"].as_str().unwrap().contains("line 1 column"),
        "{e}"
    );
    let (status, e) = post(&s, "/api/position", &json!({"variant": "chess"}));
    assert_eq!(status, 400, "{e}");
    let (status, e) = post(&s, "/api/fen", &json!({"fen": "W:Wz9"}));
    assert_eq!(status, 400, "{e}");
    let (status, e) = call(&s, "GET", "/api/position", None);
    assert_eq!(status, 405, "{e}");
    let (status, e) = call(&s, "GET", "/no/such/page", None);
    assert_eq!(status, 404, "{e}");
    let big = format!(
        "{{\"text\": \"{}\"}}",
        " ".repeat(damas::web::MAX_BODY_BYTES)
    );
    let (status, e) = call(&s, "POST", "/api/pdn/read", Some(&big));
    assert_eq!(status, 413, "{e}");
    // A name of another site for this machine is refused.
    let foreign = ureq::get(&format!("http://{}/api/setup", s.addr()))
        .set("Host", "example.com")
        .call();
    assert!(matches!(foreign, Err(ureq::Error::Status(403, _))));
    // The server still answers.
    assert_eq!(call(&s, "GET", "/api/setup", None).0, 200);
}

const TREE: &str = "[Event \"tree\"]\n[Result \"*\"]\n\n\
    1. c3-d4 {main} (1. e3-f4 {side} f6-g5 (1... b6-a5) 2. g3-h4) 1... f6-e5 *\n";

#[test]
fn pdn_with_variations_round_trips_through_the_api() {
    let s = server();
    let (status, read) = post(&s, "/api/pdn/read", &json!({"text": TREE}));
    assert_eq!(status, 200, "{read}");
    let game = &read["games"][0];
    assert_eq!(game["variant"], "brazilian");
    let first = &game["tree"][0];
    assert_eq!(
        (&first["id"], &first["comment"]),
        (&json!("c3-d4"), &json!("main"))
    );
    let side = &first["variations"][0];
    assert_eq!(side[0]["id"], "e3-f4");
    assert_eq!(side[1]["variations"][0][0]["id"], "b6-a5");
    let (status, written) = post(&s, "/api/pdn/write", &read);
    assert_eq!(status, 200, "{written}");
    let (_, again) = post(&s, "/api/pdn/read", &json!({"text": written["text"]}));
    assert_eq!(again, read);
    // An illegal move in a variation is named with where it stands.
    let bad = "1. c3-d4 (1. e3-f4 f6-g5 (1... b6-b5)) *";
    let (status, e) = post(&s, "/api/pdn/read", &json!({"text": bad}));
    assert_eq!(status, 400);
    assert!(e["error"].as_str().unwrap().contains("column 32"), "{e}");
    // So is one in a tree to write.
    let mut broken = read.clone();
    broken["games"][0]["tree"][0]["variations"][0][1]["id"] = json!("a1-a2");
    let (status, e) = post(&s, "/api/pdn/write", &broken);
    assert_eq!(status, 400);
    let message = e["error"].as_str().unwrap();
    assert!(message.contains("tree[0].variations[0][1]"), "{e}");
}

type Socket = WebSocket<TcpStream>;

/// A socket to the server from its own page (or from `origin`).
fn socket(s: &Server, origin: Option<&str>) -> Result<Socket, tungstenite::Error> {
    let mut request = format!("ws://{}/api/ws", s.addr()).into_client_request()?;
    let own = format!("http://{}", s.addr());
    let origin = origin.unwrap_or(&own).parse().unwrap();
    request.headers_mut().insert("Origin", origin);
    let stream = TcpStream::connect(s.addr()).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(120)))
        .unwrap();
    tungstenite::client(request, stream)
        .map(|(ws, _)| ws)
        .map_err(|e| match e {
            tungstenite::HandshakeError::Failure(e) => e,
            tungstenite::HandshakeError::Interrupted(_) => panic!("handshake interrupted"),
        })
}

fn send(ws: &mut Socket, v: Value) {
    ws.send(Message::text(v.to_string())).unwrap();
}

/// The next JSON message.
fn next(ws: &mut Socket) -> Value {
    loop {
        match ws.read().expect("a message") {
            Message::Text(t) => return serde_json::from_str(t.as_str()).unwrap(),
            Message::Close(_) => panic!("closed"),
            _ => {}
        }
    }
}

/// Messages until one of type `kind` (returned with those before it).
fn until(ws: &mut Socket, kind: &str) -> (Value, Vec<Value>) {
    let mut before = Vec::new();
    loop {
        let m = next(ws);
        if m["type"] == kind {
            return (m, before);
        }
        assert_ne!(m["type"], "error", "{m}");
        before.push(m);
    }
}

fn status_of(e: tungstenite::Error) -> u16 {
    match e {
        tungstenite::Error::Http(r) => r.status().as_u16(),
        other => panic!("{other}"),
    }
}

#[test]
fn analysis_streams_and_stops() {
    let s = server();
    assert_eq!(
        status_of(socket(&s, Some("http://example.com")).unwrap_err()),
        403
    );
    let mut ws = socket(&s, None).unwrap();
    send(
        &mut ws,
        json!({"type": "analyze", "id": 1, "line": start_line(&["c3-d4"]), "lines": 2}),
    );
    let (info, _) = until(&mut ws, "info");
    assert_eq!(info["id"], 1);
    let lines = info["lines"].as_array().unwrap();
    assert!(!lines.is_empty() && lines.len() <= 2, "{info}");
    assert!(lines[0]["score"]["men"].is_number(), "{info}");
    assert_eq!(lines[0]["pv_ids"][0], lines[0]["move"]);
    // Deep iterations come far apart: between them the search's live counts, each
    // past the last report's and deeper than the last completed iteration.
    let mut depth = info["depth"].as_u64().unwrap();
    let (mut nodes, mut live) = (0, Vec::new());
    while live.len() < 3 {
        let m = next(&mut ws);
        assert_eq!(m["id"], 1, "{m}");
        let n = m["nodes"].as_u64().unwrap();
        assert!(n >= nodes, "{m} after {nodes} nodes");
        nodes = n;
        match m["type"].as_str() {
            Some("info") => depth = m["depth"].as_u64().unwrap(),
            Some("searching") => {
                assert!(live.last().is_none_or(|&l| n > l), "{m} after {live:?}");
                assert_eq!(m["depth"].as_u64(), Some(depth + 1), "{m}");
                assert!(m["nps"].is_u64() && m["time_ms"].is_u64(), "{m}");
                live.push(n);
            }
            _ => panic!("{m}"),
        }
    }
    send(&mut ws, json!({"type": "stop"}));
    let (done, _) = until(&mut ws, "done");
    assert_eq!(done["id"], 1);
    assert!(done["best"].is_string(), "{done}");
    // A bad message is answered, and the socket stays open.
    send(
        &mut ws,
        json!({"type": "analyze", "id": 2, "line": start_line(&["h6-g5"])}),
    );
    let e = next(&mut ws);
    assert_eq!((&e["type"], &e["id"]), (&json!("error"), &json!(2)), "{e}");
    ws.send(Message::text("{")).unwrap();
    assert_eq!(next(&mut ws)["type"], "error");
}

#[test]
fn the_engine_plays_a_legal_move_and_reviews_a_game() {
    let s = server();
    let mut ws = socket(&s, None).unwrap();
    let fen = "W:Wa1,c1,e1,g1,d4:Bb8,d8,f8,h8,d6";
    let line = json!({"variant": "brazilian", "start": fen, "moves": []});
    send(
        &mut ws,
        json!({"type": "play", "id": 7, "line": line, "strength": 10, "time": "nodes=5000"}),
    );
    let (mv, _) = until(&mut ws, "move");
    assert_eq!(
        (&mv["id"], &mv["source"]),
        (&json!(7), &json!("search")),
        "{mv}"
    );
    let (_, p) = post(&s, "/api/position", &line);
    let legal: Vec<&Value> = p["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| &l["id"])
        .collect();
    assert!(legal.contains(&&mv["move"]), "{mv} {p}");
    // From the start, the book answers.
    send(
        &mut ws,
        json!({"type": "play", "id": 8, "line": start_line(&[]), "strength": 3}),
    );
    let (mv, _) = until(&mut ws, "move");
    assert_eq!(mv["source"], "book", "{mv}");

    let game = json!({"variant": "brazilian", "start": fen,
        "moves": ["d4-c5", "d6xb4", "a1-b2", "b4-a3", "b2-c3"]});
    send(
        &mut ws,
        json!({"type": "review", "id": 9, "line": game, "time": "nodes=20000"}),
    );
    let (review, before) = until(&mut ws, "review");
    assert!(before.iter().any(|m| m["type"] == "progress"), "{before:?}");
    assert_eq!(review["rules"], "Brazilian");
    let moves = review["moves"].as_array().unwrap();
    assert_eq!(moves.len(), 5, "{review}");
    assert_eq!(
        (&moves[0]["played"], &moves[0]["mark"]),
        (&json!("d4-c5"), &json!("??"))
    );
    assert_eq!(review["summary"]["white"]["blunders"], 1, "{review}");
    assert_eq!(review["curve"].as_array().unwrap().len(), 5);
}

#[test]
fn sockets_are_bounded_in_number_size_and_rate() {
    let s = server();
    let max = damas::web::socket::MAX_SOCKETS;
    let mut open = Vec::new();
    let mut refused = 0;
    for _ in 0..max + 8 {
        match socket(&s, None) {
            Ok(ws) => open.push(ws),
            Err(e) => {
                assert_eq!(status_of(e), 503);
                refused += 1;
            }
        }
    }
    assert_eq!((open.len(), refused), (max, 8));
    // Too many messages in a second are answered with an error, not acted on.
    let ws = &mut open[0];
    for _ in 0..damas::web::socket::MAX_MESSAGES_PER_SECOND + 5 {
        send(ws, json!({"type": "stop"}));
    }
    let e = next(ws);
    assert!(
        e["message"].as_str().unwrap().contains("too many messages"),
        "{e}"
    );
    // A message over the limit closes its socket.
    let big = " ".repeat(damas::web::socket::MAX_FRAME_BYTES + 1);
    let _ = open[1].send(Message::text(big));
    let closed = loop {
        match open[1].read() {
            Ok(Message::Close(_)) | Err(_) => break true,
            Ok(_) => {}
        }
    };
    assert!(closed);
    for mut ws in open.drain(..) {
        let _ = ws.close(None);
        let _ = ws.flush();
    }
    // Closed sockets free their places: a new one is taken once they are gone.
    let again = (0..600).find_map(|_| match socket(&s, None) {
        Ok(ws) => Some(ws),
        Err(_) => {
            std::thread::sleep(Duration::from_millis(50));
            None
        }
    });
    assert!(again.is_some());
    assert_eq!(call(&s, "GET", "/api/setup", None).0, 200);
}

#[test]
fn the_command_prints_its_address_serves_and_stops_at_ctrl_c() {
    use std::io::{BufRead, BufReader, Read};
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_damas"))
        .args(["web", "--port", "0", "--hash", "8", "--host", "0.0.0.0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run damas web");
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first
        .trim()
        .strip_prefix("damas web: http://0.0.0.0:")
        .expect(&first);
    let port = url.trim_end_matches('/');
    let setup = ureq::get(&format!("http://127.0.0.1:{port}/api/setup")).call();
    let interrupted = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .is_ok_and(|s| s.success());
    if !interrupted {
        let _ = child.kill();
    }
    let status = child.wait().unwrap();
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert_eq!(setup.map(|r| r.status()).ok(), Some(200));
    assert!(err.contains("warning: serving on 0.0.0.0"), "{err}");
    assert!(!interrupted || status.success(), "{status:?} {err}");
}

#[test]
fn a_closed_tab_stops_its_search_and_frees_the_engine() {
    let s = server();
    let mut first = socket(&s, None).unwrap();
    send(
        &mut first,
        json!({"type": "analyze", "id": 1, "line": start_line(&[])}),
    );
    until(&mut first, "info");
    first.close(None).unwrap();
    let _ = first.flush();
    // The analysis had no end of its own: the engine is free again only because
    // closing the socket stopped it.
    let mut second = socket(&s, None).unwrap();
    let line = json!({"variant": "russian", "start": "W:Wc3,e3:Bf6,h8", "moves": []});
    send(
        &mut second,
        json!({"type": "play", "id": 2, "line": line, "time": "nodes=2000"}),
    );
    let (mv, _) = until(&mut second, "move");
    assert_eq!(mv["id"], 2, "{mv}");
}

/// Resident memory of this process in bytes (Linux), where the server runs.
#[cfg(target_os = "linux")]
fn resident_bytes() -> u64 {
    let statm = std::fs::read_to_string("/proc/self/statm").unwrap();
    let pages: u64 = statm.split_whitespace().nth(1).unwrap().parse().unwrap();
    pages * 4096
}

/// A bounded load: 100 page sessions, one after another, each opening a socket,
/// starting an analysis, seeing it report and closing. None gets an error, the
/// engine is free at the end (no search left running), and memory stays where it
/// was after the first session (the table is allocated once).
#[test]
fn a_hundred_sessions_search_and_close_without_leaving_anything_running() {
    let s = server();
    let session = |n: u64| {
        let mut ws = socket(&s, None).unwrap();
        send(
            &mut ws,
            json!({"type": "analyze", "id": n, "line": start_line(&[]), "lines": 2}),
        );
        // `until` fails on any error message on the way.
        let (info, _) = until(&mut ws, "info");
        assert_eq!(info["id"], n, "{info}");
        ws.close(None).unwrap();
        let _ = ws.flush();
    };
    session(0);
    #[cfg(target_os = "linux")]
    let warm = resident_bytes();
    for n in 1..=100 {
        session(n);
    }
    // The engine is free: a new tab's move comes, which it could not while any
    // closed tab's analysis (which has no end of its own) still held it.
    let mut last = socket(&s, None).unwrap();
    send(
        &mut last,
        json!({"type": "play", "id": 101, "line": start_line(&["c3-d4"]), "time": "nodes=2000"}),
    );
    let (mv, _) = until(&mut last, "move");
    assert_eq!(mv["id"], 101, "{mv}");
    #[cfg(target_os = "linux")]
    {
        let grown = resident_bytes().saturating_sub(warm);
        assert!(grown < 32 << 20, "memory grew by {grown} bytes");
    }
}
