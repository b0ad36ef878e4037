//! Learn to play Victory & Glory: the learner's first card of the first round and everything it
//! asks for (influence, recruits, a campaign's units), each step with the rulebook's section.
//! It reads the learner's legal list and the public table.

use super::super::Vg;
use super::super::actions::Action;
use super::super::rules::player_of;
use super::super::state::{Pending, Phase};
use crate::engine::geometry::SpaceId;
use crate::engine::seats::SeatId;
use crate::table::lesson::Coach;

pub fn coach(game: &Vg, seat: SeatId, legal: &[Action]) -> Coach<Action> {
    let me = player_of(seat);
    // The first card played and all it asked for carried out: the next card is to be played.
    if game.played[me.index()] >= 1 && game.phase != Phase::Card && game.pending.is_empty() && game.tasks.is_empty() {
        return Coach::Done;
    }
    if game.phase == Phase::GameOver {
        return Coach::Done;
    }
    if legal.is_empty() {
        return Coach::Waiting(
            "The other side plays now (the book's solo AI). Your lesson goes on when the decision is yours again."
                .to_string(),
        );
    }
    let nations = |f: &dyn Fn(&Action) -> Option<u8>| -> Vec<SpaceId> {
        let mut v: Vec<SpaceId> = legal.iter().filter_map(f).map(|n| SpaceId(n as u16)).collect();
        v.sort();
        v.dedup();
        v
    };
    let find = |f: fn(&Action) -> bool| legal.iter().find(|a| f(a));
    match game.pending.first() {
        Some(Pending::PlaceInfluence { left, .. }) => Coach::step(
            format!("Place {left} influence cube(s): choose a nation in the Orders list."),
            "Influence is what scores a region at the end of an era, and a majority in a Major Nation lets an \
             alliance card be played; the ringed nations may take a cube now.",
            "VIII. The Cards: Influence",
            nations(&|a| match a {
                Action::PlaceInfluence(n) => Some(*n),
                _ => None,
            }),
            legal.first(),
        ),
        Some(Pending::RemoveInfluence { .. }) => Coach::step(
            "Remove an influence cube: choose the nation.",
            "A negative influence number: the player losing influence chooses which cubes go.",
            "VIII. The Cards: Influence",
            nations(&|a| match a {
                Action::RemoveInfluence(n) => Some(*n),
                _ => None,
            }),
            legal.first(),
        ),
        Some(Pending::RecruitNation { .. }) => Coach::step(
            "Choose the nation whose unused units you recruit from.",
            "Recruits are drawn face down from that nation's unused units; France recruits French units.",
            "VIII. The Cards: Recruiting Military Units",
            nations(&|a| match a {
                Action::RecruitFrom(n) => Some(*n),
                _ => None,
            }),
            legal.first(),
        ),
        Some(Pending::Commit { .. }) => Coach::step(
            "Commit units to the campaign, face down, then end the commitment.",
            "Both players must commit at least one unit; the one who did not play the card commits first. The \
             units turn face up once both have committed, and the battle is fought at the era's end.",
            "VIII. The Cards: Campaign Cards",
            Vec::new(),
            find(|a| matches!(a, Action::CommitUnit(_))).or(find(|a| matches!(a, Action::EndCommit))),
        ),
        Some(Pending::LoseUnit { .. }) | Some(Pending::ChooseLoss { .. }) => Coach::step(
            "Choose where the units lost come from.",
            "The owning player chooses the group; the unit is taken at random from it.",
            "VIII. The Cards: Recruiting Military Units",
            Vec::new(),
            legal.first(),
        ),
        Some(Pending::AllianceAny { .. }) => Coach::step(
            "Choose the Major Nation you ally with.",
            "An alliance needs a majority of influence there; its units come in front of you for campaigns.",
            "VIII. The Cards: Alliance Cards",
            Vec::new(),
            legal.first(),
        ),
        Some(_) => {
            Coach::step("Choose one of the listed orders.", "", "VII. The Game & Rounds", Vec::new(), legal.first())
        }
        None => Coach::step(
            "Play a card from your hand: for its body text (it acts on whom it names) or its bottom text (it acts \
             for you); a campaign card opens a campaign.",
            "Each round both players play six cards in turn; a card played leaves the game. Choose a card that \
             raises your economy or influence, or open a campaign where you are strong.",
            "VII. The Game & Rounds; VIII. The Cards",
            Vec::new(),
            find(|a| matches!(a, Action::PlayCard { .. })).or(legal.first()),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::table::lesson::{LESSON_SEED, coach_of, walk_lesson};

    /// VII. The Game & Rounds: against the book's solo AI, the lesson has France play a card and
    /// carry out all it asks for, every order it frames legal, and ends when the next card is to
    /// be played.
    #[test]
    fn rounds_the_lesson_plays_frances_first_card_to_its_end() {
        let path = std::path::Path::new("scenarios/victory-and-glory/napoleon.ron");
        let mut t = super::super::super::new_table(path, LESSON_SEED, Some(super::super::super::Player::Britain))
            .expect("the scenario loads");
        let me = crate::games::vg::rules::seat_of(super::super::super::Player::France);
        let sections =
            walk_lesson(&mut t, me, |mut legal| legal.swap_remove(0), |_, _| panic!("every step offers an order"));
        assert_eq!(coach_of(&t, me), Coach::Done);
        assert!(t.game.played[super::super::super::Player::France.index()] >= 1);
        assert!(sections.iter().any(|s| s.starts_with("VII.")), "{sections:?}");
    }
}
