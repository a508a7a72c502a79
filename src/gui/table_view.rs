//! The table as the page sees it: one JSON value with the game, its picture, the seats,
//! limits and clocks, the engines' state and their latest output.

use serde_json::{Value, json};

use crate::game::catchup::Catchup;
use crate::game::{Outcome, Player};
use crate::picture::{frame, picture_side};

use super::{EngineStatus, Table, player_name};
use crate::gui::lines::LineView;

impl Table {
    /// Everything the page draws, as JSON.
    pub fn view(&self) -> Value {
        let game = &self.game;
        let over = self.outcome();
        let last = self.moves.last().map(String::as_str);
        // draw.js reads a mark's kind as the index of its style in the layout.
        let picture = frame(game, last).ok().map(|picture| {
            let marks: Vec<Value> = picture
                .marks
                .iter()
                .map(|mark| json!({ "kind": mark.kind as u8, "cells": mark.cells, "labels": mark.labels }))
                .collect();
            json!({ "contents": picture.contents, "marks": marks, "caption": picture.caption })
        });
        let side = picture_side(game);
        // Catchup's turns are too many to list: the page picks stones up to the limit.
        let (legal, stones) = match game.record::<Catchup>() {
            _ if over.is_some() => (Vec::new(), 0),
            Some(record) => (Vec::new(), record.position().stones_allowed()),
            None => (game.legal_move_texts(), 0),
        };
        let result = over.clone().map(|(outcome, reason)| {
            let winner = match outcome {
                Outcome::Win(player) => json!(player_name(player).to_lowercase()),
                Outcome::Draw => Value::Null,
            };
            json!({ "outcome": outcome.as_str(), "winner": winner, "reason": reason })
        });
        let clocks = self.clocks.as_ref().map(|clocks| {
            let running = (over.is_none() && !self.paused).then(|| game.side_to_move());
            let left = |player: Player| {
                let mut left = clocks[player.index()].remaining();
                if running == Some(player) {
                    left = left.saturating_sub(self.turn_elapsed());
                }
                left.as_millis() as u64
            };
            json!({
                "white": left(Player::One),
                "black": left(Player::Two),
                "running": running.map(|player| player_name(player).to_lowercase()),
            })
        });
        let engines: Vec<Value> = self
            .engines
            .iter()
            .map(|engine| {
                let (status, problem) = match &engine.status {
                    EngineStatus::Stopped => ("stopped", None),
                    EngineStatus::Starting => ("starting", None),
                    EngineStatus::Ready => ("ready", None),
                    EngineStatus::Thinking => ("thinking", None),
                    EngineStatus::Analysing => ("analysing", None),
                    EngineStatus::Failed(reason) => ("failed", Some(reason.clone())),
                };
                json!({ "name": engine.name, "status": status, "problem": problem, "pid": engine.pid })
            })
            .collect();
        let limits = &self.limits;
        let units = game.variant().facts().score_units;
        let ranked = self.search.ranked.shown();
        json!({
            "version": self.version,
            "position_id": self.position_id,
            "variant": game.variant().name(),
            "side": side,
            "parameters": game
                .config()
                .parameter_values()
                .into_iter()
                .map(|(parameter, value)| (parameter.option.to_string(), json!(value)))
                .collect::<serde_json::Map<String, Value>>(),
            "start": game.start_position_text(),
            "position": game.position_text(),
            "to_move": player_name(game.side_to_move()).to_lowercase(),
            "moves": self.moves,
            "redo": self.redo.iter().rev().collect::<Vec<_>>(),
            "result": result,
            "frame": picture,
            "legal": legal,
            "stones_allowed": stones,
            "seats": [self.seats[0].name(), self.seats[1].name()],
            "strength": self.strength,
            "limits": {
                "movetime": limits.movetime.map(|time| time.as_millis() as u64),
                "nodes": limits.nodes,
                "depth": limits.depth,
                "clock": limits.clock.map(|clock| clock.to_string()),
            },
            "clocks": clocks,
            "paused": self.paused,
            "engines": engines,
            "analysing": self.analysing,
            "search": {
                "engine": self.search.engine,
                "purpose": self.search.purpose,
                "current": self.search.position_id == self.position_id,
                "lines": self
                    .search
                    .lines
                    .iter()
                    .map(|line| {
                        let mut value = json!(line);
                        value["score_text"] = json!(line.score.map(|score| score.text(units)));
                        value
                    })
                    .collect::<Vec<Value>>(),
                "ranked": ranked
                    .iter()
                    .map(|line| LineView::new(line, units))
                    .collect::<Vec<LineView>>(),
            },
            "analysis_lines": self.analysis_lines,
            "eval": self.eval.as_ref().map(|(id, lines)| json!({
                "current": *id == self.position_id,
                "lines": lines,
            })),
            "messages": self.messages,
        })
    }
}
