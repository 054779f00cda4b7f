//! Making moves: cursor, picking pieces and destinations, capture choices, the
//! move prompt, and the end of the game.

use super::*;

impl Controller {
    pub(super) fn move_cursor(&mut self, df: i8, dr: i8) {
        let f = (self.cursor.0 as i8 + df).clamp(0, 7) as u8;
        let r = (self.cursor.1 as i8 + dr).clamp(0, 7) as u8;
        self.cursor = (f, r);
    }

    pub(super) fn open_prompt(&mut self, kind: PromptKind, text: String) {
        self.choice = None;
        self.help = false;
        self.prompt = Some(Prompt { kind, text });
    }

    /// Whether a human may move now; says why not otherwise.
    pub(super) fn human_to_move(&mut self) -> bool {
        if let Some(r) = self.result() {
            self.error(format!(
                "The game is over ({}). n: new game.",
                r.reason.describe()
            ));
            return false;
        }
        let side = self.position().side_to_move();
        if self.players.of(side) == Player::Engine {
            self.error(format!(
                "{} is played by the engine; m: move now, p: change players.",
                color_name(side)
            ));
            return false;
        }
        true
    }

    pub(super) fn pick(&mut self, file: u8, row: u8) {
        let Some(sq) = Square::from_coords(file, row) else {
            self.selected = None;
            self.error(format!(
                "{}{} is a light square: pieces move on the dark squares.",
                (b'a' + file.min(7)) as char,
                row.min(7) + 1
            ));
            return;
        };
        if !self.human_to_move() {
            return;
        }
        let pos = self.position();
        let legal = legal_moves(self.variant(), &pos);
        if let Some(from) = self.selected {
            let to_here: Vec<Move> = legal
                .iter()
                .copied()
                .filter(|m| m.from() == from && m.to() == sq)
                .collect();
            if !to_here.is_empty() {
                self.selected = None;
                self.play_candidates(to_here);
                return;
            }
            if from == sq {
                self.selected = None;
                self.message = None;
                return;
            }
        }
        let side = pos.side_to_move();
        if pos.pieces(side).contains(sq) {
            if legal.iter().any(|m| m.from() == sq) {
                self.selected = Some(sq);
                self.info(format!("{sq} picked: choose a highlighted square."));
            } else if legal.first().is_some_and(|m| m.is_capture()) {
                let capturers: Vec<String> = self.movable().iter().map(|s| s.to_string()).collect();
                let rule = capture_rule(self.variant(), &pos).unwrap_or_default();
                self.error(format!(
                    "A capture is forced ({rule}): pick {}, highlighted.",
                    capturers.join(" or ")
                ));
            } else {
                self.error(format!("The piece on {sq} cannot move."));
            }
        } else if self.selected.is_some() {
            self.error(format!("{sq} is not a legal destination."));
        } else {
            self.error(format!("Pick one of {}'s pieces.", color_name(side)));
        }
    }

    /// Play the only candidate, or ask which capture path was meant.
    pub(super) fn play_candidates(&mut self, candidates: Vec<Move>) {
        if candidates.len() == 1 {
            self.play_human(candidates[0]);
        } else {
            self.choice = Some(Choice {
                candidates,
                index: 0,
            });
            self.describe_choice();
        }
    }

    pub(super) fn describe_choice(&mut self) {
        let Some(c) = &self.choice else { return };
        let pos = self.position();
        let mv = c.candidates[c.index];
        let path = capture_paths(self.variant(), &pos, mv, 1)
            .pop()
            .unwrap_or_default();
        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
        let taken: Vec<String> = mv.captured().iter().map(|s| s.to_string()).collect();
        let text = format!(
            "Capture {}/{}: {} takes {} (marked). Tab: next, Enter: play, Esc: cancel",
            c.index + 1,
            c.candidates.len(),
            path.join("x"),
            taken.join(" ")
        );
        self.info(text);
    }

    pub(super) fn step_choice(&mut self, action: Action) {
        let Some(c) = self.choice.as_mut() else {
            return;
        };
        let n = c.candidates.len();
        match action {
            Action::NextChoice => c.index = (c.index + 1) % n,
            Action::PrevChoice => c.index = (c.index + n - 1) % n,
            Action::Choose(i) if i < n => {
                c.index = i;
                let mv = c.candidates[i];
                self.choice = None;
                self.play_human(mv);
                return;
            }
            _ => {}
        }
        self.describe_choice();
    }

    pub(super) fn play_human(&mut self, mv: Move) {
        if !self.human_to_move() {
            return;
        }
        let text = move_to_string(self.variant(), &self.position(), mv, Notation::Algebraic);
        self.commit(mv);
        if self.result().is_none() {
            self.info(format!("You played {text}."));
        }
    }

    /// Play `mv` on the board (it is legal) and announce the end of the game.
    pub(super) fn commit(&mut self, mv: Move) {
        let side = self.position().side_to_move();
        let ply = self.game.moves().len();
        if !self.game.play(mv) {
            self.error("Internal: refused an illegal move.");
            return;
        }
        self.clock_log.truncate(ply);
        self.clock_log.push((self.clocks, self.bonus));
        self.clocks[side as usize] += self.turn_elapsed();
        if let Some((_, inc)) = self.clock.and_then(|c| c.game_clock()) {
            self.bonus[side as usize] += inc;
        }
        self.turn_start = Instant::now();
        self.selected = None;
        self.choice = None;
        self.hint = None;
        self.announce_end();
    }

    pub(super) fn announce_end(&mut self) {
        if let Some(r) = self.result() {
            let who = match r.winner {
                Some(c) => format!("{} wins", color_name(c)),
                None => "Draw".to_string(),
            };
            self.info(format!(
                "Game over: {who} ({}), {}. n: new game, u: undo, v: review.",
                r.reason.describe(),
                r.pdn()
            ));
        }
    }

    pub(super) fn submit(&mut self) {
        if let Some(c) = self.choice.take() {
            let mv = c.candidates[c.index];
            self.play_human(mv);
            return;
        }
        let Some(prompt) = self.prompt.take() else {
            return;
        };
        let text = prompt.text.trim().to_string();
        match prompt.kind {
            PromptKind::Move => self.submit_move(&text),
            PromptKind::Fen => match parse_fen(&text) {
                Ok(pos) => {
                    self.new_game(pos);
                    self.info(format!("Position set: {}", to_fen(&pos)));
                    // A set-up position can be over already (`W:Wa1:B`).
                    self.announce_end();
                }
                Err(e) => self.error(format!("Bad FEN: {e}")),
            },
            PromptKind::Save | PromptKind::Load if text.is_empty() => {
                self.error("No file name given.")
            }
            PromptKind::Save => {
                self.save_path = text.clone();
                let pdn = self.pdn_text();
                let path = PathBuf::from(text);
                if path.exists() && self.written.as_ref() != Some(&path) {
                    self.ask_overwrite(path, pdn);
                } else {
                    self.written = Some(path.clone());
                    self.effects.push(Effect::Save { path, text: pdn });
                }
            }
            PromptKind::Load => {
                self.load_path = text.clone();
                self.effects.push(Effect::Load(PathBuf::from(text)));
            }
        }
    }

    pub(super) fn submit_move(&mut self, text: &str) {
        if !self.human_to_move() {
            return;
        }
        let pos = self.position();
        match parse_move(self.variant(), &pos, text) {
            Ok(mv) => self.play_human(mv),
            Err(MoveError::Ambiguous { candidates, .. }) => {
                let moves: Vec<Move> = legal_moves(self.variant(), &pos)
                    .iter()
                    .copied()
                    .filter(|&m| {
                        let path = capture_paths(self.variant(), &pos, m, 1)
                            .pop()
                            .unwrap_or_default();
                        let path: Vec<String> = path.iter().map(|s| s.to_string()).collect();
                        candidates.contains(&path.join("x"))
                    })
                    .collect();
                if moves.len() > 1 {
                    self.play_candidates(moves);
                } else {
                    self.error(format!(
                        "Ambiguous move {text:?}: could be {}.",
                        candidates.join(", ")
                    ));
                }
            }
            Err(MoveError::Illegal { .. }) if capture_rule(self.variant(), &pos).is_some() => {
                let rule = capture_rule(self.variant(), &pos).unwrap_or_default();
                self.error(format!("Illegal move {text:?}: {rule}."));
            }
            Err(e) => self.error(e.to_string()),
        }
    }
}

/// When a capture is forced in `pos` under `variant`: the rule and the captures allowed, e.g.
/// `captures are compulsory and the longest capture must be taken: g1xa3 takes 3`.
pub(super) fn capture_rule(variant: Variant, pos: &Position) -> Option<String> {
    let legal = legal_moves(variant, pos);
    let first = legal.first().filter(|m| m.is_capture())?;
    let most = first.captured().count();
    let mut names: Vec<String> = legal
        .iter()
        .map(|&m| move_to_string(variant, pos, m, Notation::Algebraic))
        .collect();
    names.dedup();
    let shown = if names.len() > 4 {
        format!("{} …", names[..4].join(", "))
    } else {
        names.join(", ")
    };
    let takes = if most == 1 {
        "takes 1 piece".to_string()
    } else {
        format!("takes {most}")
    };
    let majority =
        damas_rules::with_rules!(variant, R => <R as damas_rules::variant::Rules>::MAJORITY);
    Some(if most > 1 && majority {
        format!("captures are compulsory and the longest capture must be taken: {shown} {takes}")
    } else {
        format!("captures are compulsory: {shown}")
    })
}
