//! The Hub protocol (README, "Hub protocol and bots"): the engine side ([`engine`]) behind
//! `damas hub`, the text layer both sides share ([`protocol`]), and a client ([`client`])
//! that drives any Hub engine as a child process.

pub mod client;
pub mod engine;
pub mod numbering;
pub mod protocol;
pub mod settings;
mod worker;

pub use client::{ClientError, HubClient};
pub use engine::{run_stdio, HubEngine};
pub use numbering::MoveNumbering;
pub use protocol::{
    parse_command, parse_position, position_string, GoMode, HubCommand, ProtocolError,
};
pub use settings::Settings;
