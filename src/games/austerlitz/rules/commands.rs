//! Units and Commands: the corps commanders and the supreme commander, their ranges, the rating a
//! unit fights with, and the commands of step 4.

use super::movement::Occupancy;
use crate::games::austerlitz::actions::Action;
use crate::games::austerlitz::actions::AzError;
use crate::games::austerlitz::actions::rule;
use crate::games::austerlitz::data::Cell;
use crate::games::austerlitz::state::Austerlitz;
use smallvec::SmallVec;

impl Austerlitz {
    /// Every space a command may move to (step 4): its MF in spaces, never onto enemy units or
    /// another command, on its own or on top of one of its side's units.
    pub fn command_reach(&self, k: usize) -> Vec<Cell> {
        self.command_reach_on(k, &self.occupancy())
    }

    /// `command_reach` on who holds each space, read once for every command of a list.
    pub(super) fn command_reach_on(&self, k: usize, occ: &Occupancy) -> Vec<Cell> {
        let cmd = &self.commands[k];
        let Some(at) = cmd.at else { return Vec::new() };
        if cmd.captured || cmd.moved {
            return Vec::new();
        }
        let side = self.sc.commands[k].side;
        let mf = self.sc.commands[k].mf as i32;
        let b = &self.sc.board;
        // A step costs one MF whatever the space: every ring at once, through any space no
        // enemy unit holds (each step to a bordering space, so every space reached lies within
        // the MF's king's distance as well).
        let start = b.index(at);
        let open: SmallVec<[u64; 8]> = occ.held[side.other().index()].iter().map(|w| !w).collect();
        let mut reached = b.bits.spread(start, &open, mf as u32);
        reached[start / 64] &= !(1 << (start % 64));
        for c in self.commands.iter().filter(|c| !c.captured).filter_map(|c| c.at) {
            let i = b.index(c);
            reached[i / 64] &= !(1 << (i % 64));
        }
        // In the board's order, as every list is; never on a pond.
        let mut out = Vec::new();
        for (w, &word) in reached.iter().enumerate() {
            let mut bits = word;
            while bits != 0 {
                let i = w * 64 + bits.trailing_zeros() as usize;
                bits &= bits - 1;
                if !b.pond[i] {
                    out.push(b.cell_of(i));
                }
            }
        }
        out
    }

    pub fn command_at(&self, c: Cell) -> Option<usize> {
        (0..self.commands.len()).find(|&k| self.commands[k].at == Some(c) && !self.commands[k].captured)
    }

    /// The command rating a unit fights with (Formations & Commanders): its corps commander's if
    /// within his range, the supreme commander's where the unit or its corps commander is within
    /// his; 0 out of range.
    pub fn rating_of(&self, u: usize) -> u8 {
        let Some(at) = self.units[u].at else { return 0 };
        let own = self.sc.unit_command[u] as usize;
        let side = self.side_of(u);
        let in_range = |k: usize, c: Cell| {
            let cmd = &self.commands[k];
            !cmd.captured && cmd.at.is_some_and(|p| self.command_reaches(k, p, c))
        };
        let supreme =
            (0..self.commands.len()).find(|&k| self.sc.commands[k].supreme && self.sc.commands[k].side == side);
        if let Some(s) = supreme {
            let via_corps = in_range(own, at) && self.commands[own].at.is_some_and(|p| in_range(s, p));
            if in_range(s, at) || via_corps {
                return self.sc.commands[s].rating;
            }
        }
        if in_range(own, at) { self.sc.commands[own].rating } else { 0 }
    }

    /// Whether the unit is in range of any of its side's commands (for the formation modifiers).
    pub fn in_command(&self, u: usize) -> bool {
        let Some(at) = self.units[u].at else { return false };
        let side = self.side_of(u);
        (0..self.commands.len()).any(|k| {
            self.sc.commands[k].side == side
                && !self.commands[k].captured
                && self.commands[k].at.is_some_and(|p| self.command_reaches(k, p, at))
        })
    }

    /// Whether command `k` standing on `from` has `to` within its Command Range. The book's
    /// "6 hexes" is counted on this board as spaces stepped through, from a space to a bordering
    /// one (`SquareOctGrid::steps`): the way a unit or a command moves, so a range of 6 is six
    /// such steps. The king's distance would let a unit 7 steps away count, where both spaces
    /// are squares on one diagonal (Formations & Commanders).
    pub fn command_reaches(&self, k: usize, from: Cell, to: Cell) -> bool {
        self.sc.board.grid.steps(from, to) <= self.sc.commands[k].range as i32
    }
}

// The legal listing and the refusals of this chapter.
impl Austerlitz {
    /// Step 4: where each of the phasing side's commands (all, or the one `command` names) may go.
    pub(super) fn list_commands(&self, command: Option<usize>, out: &mut Vec<Action>) {
        let occ = self.occupancy();
        for k in (0..self.commands.len()).filter(|&k| command.is_none_or(|c| c == k)) {
            if self.sc.commands[k].side == self.side {
                out.extend(
                    self.command_reach_on(k, &occ).into_iter().map(|to| Action::MoveCommand { command: k as u8, to }),
                );
            }
        }
    }

    pub(super) fn refuse_command(&self) -> AzError {
        AzError::new(rule::PHASES, "a command moves its MF, never onto enemy units or another command, once a turn")
    }
}
