//! A table's clock (issue 32), chosen when the table is made: live, minutes for the whole game
//! with seconds added after each move, or turn-based, days per move with a reserve, the time
//! added after each move never lifting a seat above what it started with (as Board Game Arena's
//! turn-based clocks work). The seat whose decision it is spends its time; a move is the
//! decision leaving a seat. A seat out of time may go on playing until the other seat claims the
//! game or has the host skip it. Without a clock nothing of this exists.

use serde::{Deserialize, Serialize};

const MINUTE_MS: i64 = 60_000;
const DAY_MS: i64 = 24 * 60 * MINUTE_MS;

/// How a clock counts: live (minutes) or turn-based (days).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum ClockKind {
    Live,
    Turns,
}

/// A clock's rule: each seat's time at the start, the time added after each of its moves, and
/// the most it may reach by what is added (none: no cap), all in milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockRule {
    pub kind: ClockKind,
    pub start_ms: i64,
    pub per_move_ms: i64,
    pub cap_ms: Option<i64>,
}

impl ClockRule {
    /// A live clock: `minutes` for the whole game, `increment_s` seconds added after each move.
    pub fn live(minutes: u32, increment_s: u32) -> ClockRule {
        ClockRule {
            kind: ClockKind::Live,
            start_ms: minutes as i64 * MINUTE_MS,
            per_move_ms: increment_s as i64 * 1000,
            cap_ms: None,
        }
    }

    /// A turn-based clock: `days` per move and a reserve of `reserve_days`; each move gives the
    /// `days` back, up to the start.
    pub fn turns(days: u32, reserve_days: u32) -> ClockRule {
        let start = (days as i64 + reserve_days as i64) * DAY_MS;
        ClockRule { kind: ClockKind::Turns, start_ms: start, per_move_ms: days as i64 * DAY_MS, cap_ms: Some(start) }
    }

    /// Reads `live:MINUTES[+SECONDS]` or `days:DAYS[+RESERVE]`, as the command line and the
    /// lobby write a clock.
    pub fn parse(text: &str) -> Result<ClockRule, String> {
        // A stranger's text is quoted back only when it is short.
        if text.len() > 40 {
            return Err("a clock is written in at most 40 characters (days:2+5)".into());
        }
        let bad =
            || format!("`{text}`: a clock is live:MINUTES[+SECONDS] (live:30+10) or days:DAYS[+RESERVE] (days:2+5)");
        let (kind, rest) = text.split_once(':').ok_or_else(bad)?;
        let (a, b) = rest.split_once('+').unwrap_or((rest, "0"));
        let a: u32 = a.trim().parse().map_err(|_| bad())?;
        let b: u32 = b.trim().parse().map_err(|_| bad())?;
        let rule = match kind.trim() {
            "live" if (1..=24 * 60).contains(&a) && b <= 3600 => ClockRule::live(a, b),
            "days" if (1..=30).contains(&a) && b <= 60 => ClockRule::turns(a, b),
            "live" => return Err(format!("`{text}`: a live clock has 1 to 1440 minutes and at most 3600 s a move")),
            "days" => {
                return Err(format!("`{text}`: a turn-based clock has 1 to 30 days a move and at most 60 in reserve"));
            }
            _ => return Err(bad()),
        };
        Ok(rule)
    }

    /// The rule in a few words ("live, 30 min + 10 s a move"; "2 days a move, 5 in reserve").
    pub fn words(&self) -> String {
        match self.kind {
            ClockKind::Live => {
                format!("live, {} min + {} s a move", self.start_ms / MINUTE_MS, self.per_move_ms / 1000)
            }
            ClockKind::Turns => {
                let days = self.per_move_ms / DAY_MS;
                format!("{days} days a move, {} in reserve", (self.start_ms - self.per_move_ms) / DAY_MS)
            }
        }
    }
}

/// Where a table's clock stands: each seat's time when its time last stopped or started, and
/// whose time runs since when (milliseconds since 1970).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Clock {
    pub rule: ClockRule,
    left_ms: Vec<i64>,
    running: Option<(u8, u64)>,
}

impl Clock {
    pub fn new(rule: ClockRule, seats: usize) -> Clock {
        Clock { rule, left_ms: vec![rule.start_ms; seats], running: None }
    }

    /// `seat`'s time left at `now` (below zero: out of time by that much).
    pub fn left(&self, seat: u8, now: u64) -> i64 {
        let kept = self.left_ms[seat as usize];
        match self.running {
            Some((s, since)) if s == seat => kept - now.saturating_sub(since) as i64,
            _ => kept,
        }
    }

    /// The decision is `active`'s from `now` (none: nobody's, the game over or claimed): the
    /// seat whose time ran is charged, and given its time for a move if the decision passed to
    /// another seat.
    pub fn pass(&mut self, active: Option<u8>, now: u64) {
        if let Some((s, since)) = self.running {
            if active == Some(s) {
                return;
            }
            let k = s as usize;
            self.left_ms[k] -= now.saturating_sub(since) as i64;
            if active.is_none() {
                self.running = None;
                return;
            }
            let added = self.left_ms[k] + self.rule.per_move_ms;
            // What is added never lifts a seat above the cap; a seat already above it keeps
            // what it has.
            self.left_ms[k] = match self.rule.cap_ms {
                Some(cap) => added.min(cap.max(self.left_ms[k])),
                None => added,
            };
        }
        self.running = active.map(|s| (s, now));
    }

    /// Excuses the seat whose time runs for the time the host was away: from `down_from` (its
    /// last sign of life) to `now`, none of it before that seat's time started (issue 63: a
    /// host's downtime was charged as thinking). How much was excused.
    pub fn excuse_downtime(&mut self, down_from: u64, now: u64) -> u64 {
        let Some((_, since)) = self.running else { return 0 };
        let excused = now.saturating_sub(down_from.max(since));
        self.excuse(excused);
        excused
    }

    /// Moves the start of the running seat's time on by `ms`: a downtime excused, as the
    /// table's log records it.
    pub fn excuse(&mut self, ms: u64) {
        if let Some((_, since)) = &mut self.running {
            *since += ms;
        }
    }

    /// Whether some seat's time runs now.
    pub fn is_running(&self) -> bool {
        self.running.is_some()
    }

    /// The seat whose time runs and has run out at `now`.
    pub fn out_of_time(&self, now: u64) -> Option<u8> {
        let (s, _) = self.running?;
        (self.left(s, now) <= 0).then_some(s)
    }

    /// What every seat is shown at `now`, the game claimed by `claimed_by` (none: not claimed).
    pub fn view(&self, now: u64, claimed_by: Option<u8>) -> ClockView {
        ClockView {
            rule: self.rule,
            left_ms: (0..self.left_ms.len() as u8).map(|s| self.left(s, now)).collect(),
            running: self.running.map(|(s, _)| s),
            out_of_time: self.out_of_time(now),
            claimed_by,
            at_ms: now,
        }
    }
}

/// A clock as every seat sees it: the rule, each seat's time left at `at_ms`, whose time runs,
/// who is out of time and who claimed the game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockView {
    pub rule: ClockRule,
    pub left_ms: Vec<i64>,
    pub running: Option<u8>,
    pub out_of_time: Option<u8>,
    /// The seat that claimed the game, the other out of time: the table is over.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub claimed_by: Option<u8>,
    pub at_ms: u64,
}

/// A time left in words: "2 d 4 h", "3 h 12 min", "4:05", "out of time".
pub fn words(ms: i64) -> String {
    if ms <= 0 {
        return "out of time".into();
    }
    let s = ms / 1000;
    let (d, h, m) = (s / 86_400, s / 3600 % 24, s / 60 % 60);
    if d > 0 {
        format!("{d} d {h} h")
    } else if h > 0 {
        format!("{h} h {m} min")
    } else {
        format!("{m}:{:02}", s % 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const H: u64 = 3_600_000;
    const D: u64 = 24 * H;

    #[test]
    fn a_turn_based_clock_gives_a_move_its_days_back_never_above_the_start() {
        // Two days a move, five in reserve: seven days each.
        let mut c = Clock::new(ClockRule::turns(2, 5), 2);
        c.pass(Some(0), 0);
        // Seat 0 takes three days: seven less three, plus two, is six.
        c.pass(Some(1), 3 * D);
        assert_eq!(c.left(0, 3 * D), 6 * D as i64);
        // Seat 1 takes a day: seven less one plus two is eight, held at seven.
        c.pass(Some(0), 4 * D);
        assert_eq!(c.left(1, 4 * D), 7 * D as i64);
        // Seat 0's time runs: at 10 days it is out.
        assert_eq!(c.out_of_time(9 * D), None);
        assert_eq!(c.out_of_time(10 * D), Some(0));
        assert_eq!(c.view(11 * D, None).left_ms, vec![-(D as i64), 7 * D as i64]);
        assert_eq!(c.view(11 * D, None).running, Some(0));
    }

    #[test]
    fn a_live_clock_counts_down_the_game_and_adds_its_increment_after_each_move() {
        let mut c = Clock::new(ClockRule::live(10, 5), 2);
        c.pass(Some(0), 0);
        // Several actions of one seat in a row are one move.
        c.pass(Some(0), 60_000);
        c.pass(Some(1), 120_000);
        assert_eq!(c.left(0, 500_000), 600_000 - 120_000 + 5_000);
        assert_eq!(c.left(1, 180_000), 600_000 - 60_000);
        // The game over: nobody's time runs.
        c.pass(None, 200_000);
        assert_eq!(c.view(900_000, None).running, None);
        assert_eq!(c.left(1, 900_000), 600_000 - 80_000, "nothing added at the end");
    }

    #[test]
    fn a_downtime_of_the_host_is_excused_from_the_seat_whose_time_runs() {
        // Issue 63, item 5: live:1, the host last alive 10 s into the seat's minute, down for
        // 60 s. Only the 10 s it was there count.
        let mut c = Clock::new(ClockRule::live(1, 0), 2);
        c.pass(Some(0), 1_000);
        assert_eq!(c.excuse_downtime(11_000, 71_000), 60_000);
        assert_eq!(c.left(0, 71_000), 50_000);
        assert_eq!(c.out_of_time(71_000), None);
        // A host down since before the seat's time started excuses only what ran of it.
        let mut c = Clock::new(ClockRule::turns(1, 0), 2);
        c.pass(Some(1), 5_000);
        assert_eq!(c.excuse_downtime(2_000, 9_000), 4_000);
        assert_eq!(c.left(1, 9_000), 24 * 3_600_000);
        // Nobody's time runs: nothing to excuse.
        let mut c = Clock::new(ClockRule::live(1, 0), 2);
        assert_eq!(c.excuse_downtime(0, 9_000), 0);
    }

    #[test]
    fn a_clock_is_written_as_the_command_line_and_the_lobby_write_it() {
        assert_eq!(ClockRule::parse("live:30+10").unwrap(), ClockRule::live(30, 10));
        assert_eq!(ClockRule::parse("live:30").unwrap(), ClockRule::live(30, 0));
        assert_eq!(ClockRule::parse("days:2+5").unwrap(), ClockRule::turns(2, 5));
        for bad in ["", "live", "days:0", "days:31", "live:x", "hours:3", "live:30+-1", "days:2+61"] {
            assert!(ClockRule::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(ClockRule::turns(2, 5).words(), "2 days a move, 5 in reserve");
        assert_eq!(ClockRule::live(30, 10).words(), "live, 30 min + 10 s a move");
        assert_eq!(words(2 * D as i64 + 4 * H as i64 + 5), "2 d 4 h");
        assert_eq!(words(245_000), "4:05");
        assert_eq!(words(0), "out of time");
    }
}
