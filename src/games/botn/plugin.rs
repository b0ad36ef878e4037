//! Battle of the Nations in the ECS (headless too): the step of play as a Bevy `States`, and the
//! board's fields, the armies, troop markers, chips, figures, the time indicator and every card as
//! entities whose components mirror the table after each applied action. Cards are mirrored from
//! what the `Eyes` may see (`Game::observe`): a card whose face they may not see is placed among
//! the unseen cards by id order alone, so its entity tells nothing of where that card really is.

use super::data::Side;
use super::observe::BotnView;
use super::state::{ArmyId, Botn, CardId, HandCard, MarkerId, MissionId, Step};
use crate::engine::geometry::SpaceId;
use crate::engine::plugin::{EnginePlugin, Eyes, SyncNeed, TableSet, TableVersion, sync_need};
use crate::engine::seen::Seen;
use bevy::prelude::*;

/// The step of the sequence of play, as a Bevy state (rules and panels run `in_state` of it).
#[derive(States, Default, Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum BotnPhase {
    #[default]
    Preparation,
    Actions,
    ChooseUnit,
    Discard,
    Fight,
    Scoring,
    /// Two armies' last markers share a field: the active player picks the one placed.
    PlaceArmy,
    GameOver,
}

impl From<Step> for BotnPhase {
    fn from(s: Step) -> Self {
        match s {
            Step::MissionDraft => BotnPhase::Preparation,
            Step::Actions => BotnPhase::Actions,
            Step::ChooseUnit => BotnPhase::ChooseUnit,
            Step::PlaceArmy => BotnPhase::PlaceArmy,
            Step::Discard => BotnPhase::Discard,
            Step::Fight => BotnPhase::Fight,
            Step::Scoring => BotnPhase::Scoring,
            Step::GameOver => BotnPhase::GameOver,
        }
    }
}

/// A field of the board.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct Field(pub SpaceId);

/// Which side a piece or card belongs to.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Owner(pub Side);

/// A troop marker.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct TroopMarker {
    pub id: MarkerId,
    pub army: ArmyId,
}

/// An army (the general's tile).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct ArmyPiece(pub ArmyId);

/// Where a piece is: a field, or off the board (in its supply or removed).
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
pub struct At(pub Option<SpaceId>);

/// An army's current strength, and whether it shows its pale back.
#[derive(Component, Debug, Clone, Copy, PartialEq, Default)]
pub struct Strength {
    pub value: i8,
    pub flipped: bool,
}

/// The time indicator on the time bar (beside the field of play, for the broadcast's director).
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(crate::engine::plugin::Aside)]
pub struct TimeIndicator(pub u8);

/// A victory point indicator (the red and blue cannons), beside the field of play.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(crate::engine::plugin::Aside)]
pub struct VictoryMarker {
    pub side: Side,
    pub points: u8,
}

/// A "-1" chip in the supply next to the board.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct MinusOneChip(pub u8);

/// A wooden soldier marking a revealed mission's field.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
pub struct MissionFigure(pub u8);

/// What a card is. Cards lie beside the field of play.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[require(crate::engine::plugin::Aside)]
pub enum Card {
    Action(CardId),
    /// Scout card number n (they are identical).
    Scout(u8),
    Mission(MissionId),
    /// An army card, by army.
    Army(ArmyId),
}

/// Whether the eyes of the mirror see this card's face.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub struct FaceShown(pub bool);

/// Where a card lies, as the eyes of the mirror see it.
#[derive(Component, Debug, Clone, Copy, PartialEq, Eq)]
pub enum CardPlace {
    Hand(Side, u8),
    FaceUp(u8),
    DrawPile(u8),
    Discard(u8),
    OutOfGame,
    ScoutSupply(u8),
    /// Napoléon's mission in reveal order (revealed or not).
    Mission(u8),
    /// A mission card of the pair being drafted.
    Draft(u8),
    /// A mission card not in play.
    MissionBox,
    /// An army card in front of its player: face up until laid out, then face down.
    ArmyCards(Side, u8, bool),
}

pub struct BotnPlugin;

impl Plugin for BotnPlugin {
    fn build(&self, app: &mut App) {
        app.add_plugins((EnginePlugin::<Botn>::default(), crate::engine::seen::SeenPlugin::<Botn>::default()))
            .init_state::<BotnPhase>()
            .add_systems(Update, sync_entities.in_set(TableSet::Sync));
    }
}

/// Spawns the table's entities when a table appears (or its scenario changes) and updates their
/// components after each change.
#[allow(clippy::type_complexity, clippy::too_many_arguments)]
pub fn sync_entities(
    mut commands: Commands,
    seen: Option<Res<Seen<Botn>>>,
    version: Res<TableVersion>,
    eyes: Res<Eyes>,
    mut last: Local<Option<(u64, usize)>>,
    mut dealt: Local<Option<(crate::engine::seats::Viewer, CardPlaces)>>,
    mut next_phase: ResMut<NextState<BotnPhase>>,
    phase: Res<State<BotnPhase>>,
    existing: Query<
        Entity,
        Or<(
            With<Field>,
            With<TroopMarker>,
            With<ArmyPiece>,
            With<Card>,
            With<TimeIndicator>,
            With<VictoryMarker>,
            With<MinusOneChip>,
            With<MissionFigure>,
        )>,
    >,
    mut markers: Query<(&TroopMarker, &mut At), Without<ArmyPiece>>,
    mut armies: Query<(&ArmyPiece, &mut At, &mut Strength), Without<TroopMarker>>,
    mut cards: Query<(&Card, &mut CardPlace, &mut FaceShown)>,
    mut time: Query<&mut TimeIndicator>,
    mut vps: Query<&mut VictoryMarker>,
    figures: Query<(Entity, &MissionFigure)>,
) {
    let Some(seen) = seen else { return };
    let (Some(game), Some(view)) = (seen.game(), seen.view.as_ref()) else { return };
    let need = sync_need(&game.sc, seen.is_changed() || eyes.is_changed(), &version, &mut last);
    if need == SyncNeed::Nothing {
        return;
    }
    let wanted = BotnPhase::from(game.step);
    if *phase.get() != wanted {
        next_phase.set(wanted);
    }
    if need == SyncNeed::Respawn {
        for e in &existing {
            commands.entity(e).despawn();
        }
        spawn_all(&mut commands, game, view);
        *dealt = Some((eyes.0, CardPlaces::of(view)));
        return;
    }
    for (m, mut at) in &mut markers {
        let want = At(game.markers[m.id as usize].at);
        if *at != want {
            *at = want;
        }
    }
    for (a, mut at, mut strength) in &mut armies {
        let s = &game.armies[a.0 as usize];
        let want = At(if s.eliminated { None } else { s.at });
        if *at != want {
            *at = want;
        }
        let want = Strength { value: s.strength, flipped: s.flipped };
        if *strength != want {
            *strength = want;
        }
    }
    // The cards the eyes cannot tell apart stay where they lay (other eyes deal them afresh).
    let placed = match dealt.take() {
        Some((viewer, before)) if viewer == eyes.0 => CardPlaces::of(view).keeping(&before),
        _ => CardPlaces::of(view),
    };
    for (card, mut place, mut face) in &mut cards {
        let (want, shown) = placed.get(*card);
        if *place != want {
            *place = want;
        }
        if face.0 != shown {
            face.0 = shown;
        }
    }
    *dealt = Some((eyes.0, placed));
    for mut t in &mut time {
        if t.0 != game.time {
            t.0 = game.time;
        }
    }
    for mut v in &mut vps {
        let p = game.vp[v.side.index()];
        if v.points != p {
            v.points = p;
        }
    }
    let shown = figures.iter().count();
    for i in shown..game.revealed as usize {
        commands.spawn((MissionFigure(i as u8), Name::new(format!("Mission figure {}", i + 1))));
    }
    for (e, f) in &figures {
        if f.0 >= game.revealed {
            commands.entity(e).despawn();
        }
    }
}

fn spawn_all(commands: &mut Commands, game: &Botn, view: &BotnView) {
    let sc = &game.sc;
    let seen = CardPlaces::of(view);
    let card_place = |_: &Botn, card: Card| {
        let (place, shown) = seen.get(card);
        (place, FaceShown(shown))
    };
    for (i, f) in sc.fields.iter().enumerate() {
        commands.spawn((Field(SpaceId(i as u16)), Name::new(f.name.clone())));
    }
    for (i, m) in game.markers.iter().enumerate() {
        commands.spawn((
            TroopMarker { id: i as MarkerId, army: m.army },
            Owner(game.army_side(m.army)),
            At(m.at),
            Name::new(format!("{} marker", game.army_name(m.army))),
        ));
    }
    for (i, a) in game.armies.iter().enumerate() {
        commands.spawn((
            ArmyPiece(i as ArmyId),
            Owner(game.army_side(i as ArmyId)),
            At(a.at),
            Strength { value: a.strength, flipped: a.flipped },
            Name::new(game.army_name(i as ArmyId).to_string()),
        ));
    }
    for c in 0..sc.action_cards.len() as CardId {
        let card = Card::Action(c);
        commands.spawn((card, card_place(game, card), Name::new("Action card")));
    }
    for s in 0..sc.scout_cards {
        let card = Card::Scout(s);
        commands.spawn((card, card_place(game, card), Name::new("Scout card")));
    }
    for m in 0..sc.missions.len() as MissionId {
        let card = Card::Mission(m);
        commands.spawn((card, card_place(game, card), Name::new("Mission card")));
    }
    for a in 0..sc.armies.len() as ArmyId {
        let card = Card::Army(a);
        commands.spawn((
            card,
            card_place(game, card),
            Owner(game.army_side(a)),
            Name::new(format!("Army card {}", sc.armies[a as usize].def.card)),
        ));
    }
    commands.spawn((TimeIndicator(game.time), Name::new("Time indicator")));
    for side in [Side::French, Side::Allied] {
        commands.spawn((
            VictoryMarker { side, points: game.vp[side.index()] },
            Name::new(format!("{} victory points", side.name())),
        ));
    }
    for i in 0..game.minus_one_supply {
        commands.spawn((MinusOneChip(i), Name::new("-1 chip")));
    }
    // The revealed missions' markers: a table loaded mid-game shows them at once.
    for i in 0..game.revealed {
        commands.spawn((MissionFigure(i), Name::new(format!("Mission figure {}", i + 1))));
    }
}

/// Where every card lies as a view shows it, and whether its face is seen.
pub struct CardPlaces {
    actions: Vec<(CardPlace, bool)>,
    scouts: Vec<(CardPlace, bool)>,
    missions: Vec<(CardPlace, bool)>,
    armies: Vec<CardPlace>,
}

impl CardPlaces {
    /// Reads the places from the view alone. Seen cards lie where the view shows them; the
    /// unseen (the draw pile, a hand the viewer may not see, hidden missions) fill the unseen
    /// places in id order, which depends only on what the viewer knows.
    pub fn of(view: &BotnView) -> CardPlaces {
        let sc = &view.sc;
        let mut actions = vec![None; sc.action_cards.len()];
        let mut scouts = Vec::new();
        let mut hidden = Vec::new();
        for (i, &c) in view.face_up.iter().enumerate() {
            actions[c as usize] = Some((CardPlace::FaceUp(i as u8), true));
        }
        for (i, &c) in view.discard.iter().enumerate() {
            actions[c as usize] = Some((CardPlace::Discard(i as u8), true));
        }
        for &c in &view.out_of_game {
            actions[c as usize] = Some((CardPlace::OutOfGame, true));
        }
        for side in [Side::French, Side::Allied] {
            for (i, h) in view.hands[side.index()].iter().enumerate() {
                let place = CardPlace::Hand(side, i as u8);
                match h {
                    Some(HandCard::Action(c)) => actions[*c as usize] = Some((place, true)),
                    Some(HandCard::Scout) => scouts.push((place, true)),
                    None => hidden.push(place),
                }
            }
        }
        for i in 0..view.scout_supply {
            scouts.push((CardPlace::ScoutSupply(i), true));
        }
        hidden.extend((0..view.draw_pile).map(|i| CardPlace::DrawPile(i.min(255) as u8)));
        let mut hidden = hidden.into_iter();
        let mut place_unseen = |slot: &mut Option<(CardPlace, bool)>| {
            if slot.is_none() {
                *slot = Some((hidden.next().unwrap_or(CardPlace::OutOfGame), false));
            }
        };
        actions.iter_mut().for_each(&mut place_unseen);
        let actions: Vec<(CardPlace, bool)> = actions.into_iter().flatten().collect();
        while scouts.len() < sc.scout_cards as usize {
            let mut slot = None;
            place_unseen(&mut slot);
            scouts.extend(slot);
        }
        let mut missions = vec![None; sc.missions.len()];
        let mut hidden_missions = Vec::new();
        for (i, m) in view.missions.iter().enumerate() {
            match m {
                Some(m) => missions[*m as usize] = Some((CardPlace::Mission(i as u8), true)),
                None => hidden_missions.push(CardPlace::Mission(i as u8)),
            }
        }
        for (i, m) in view.draft_pair.iter().enumerate() {
            match m {
                Some(m) => missions[*m as usize] = Some((CardPlace::Draft(i as u8), true)),
                None => hidden_missions.push(CardPlace::Draft(i as u8)),
            }
        }
        let mut hidden_missions = hidden_missions.into_iter();
        let missions = missions
            .into_iter()
            .map(|m| m.unwrap_or_else(|| (hidden_missions.next().unwrap_or(CardPlace::MissionBox), false)))
            .collect();
        let armies = (0..sc.armies.len())
            .map(|a| {
                let side = sc.armies[a].def.side;
                let index = sc.armies.iter().take(a).filter(|x| x.def.side == side).count();
                CardPlace::ArmyCards(side, index as u8, view.armies[a].card_played)
            })
            .collect();
        CardPlaces { actions, scouts, missions, armies }
    }

    /// The same places, but each unseen card stays where `before` had it while that unseen place
    /// is still there; only the rest fill the places left, in id order. The places of the unseen
    /// are all alike to the viewer, so which card lies in which tells nothing — but dealt afresh
    /// in id order after every draw or play, half the backs on the table would slide from slot to
    /// slot (and the broadcast's director would frame the hands and the pile for every card).
    /// What stays depends only on the views seen before: nothing the eyes may not know.
    pub fn keeping(mut self, before: &CardPlaces) -> CardPlaces {
        let mut cards: Vec<&mut (CardPlace, bool)> = self.actions.iter_mut().chain(self.scouts.iter_mut()).collect();
        let was: Vec<&(CardPlace, bool)> = before.actions.iter().chain(before.scouts.iter()).collect();
        keep_unseen(&mut cards, &was);
        let mut missions: Vec<&mut (CardPlace, bool)> = self.missions.iter_mut().collect();
        let was: Vec<&(CardPlace, bool)> = before.missions.iter().collect();
        keep_unseen(&mut missions, &was);
        self
    }

    /// Where `card` lies and whether its face is seen.
    pub fn get(&self, card: Card) -> (CardPlace, bool) {
        let out = (CardPlace::OutOfGame, false);
        match card {
            Card::Action(c) => self.actions.get(c as usize).copied().unwrap_or(out),
            Card::Scout(n) => self.scouts.get(n as usize).copied().unwrap_or(out),
            Card::Mission(m) => self.missions.get(m as usize).copied().unwrap_or(out),
            Card::Army(a) => self.armies.get(a as usize).map(|&p| (p, true)).unwrap_or(out),
        }
    }
}

/// Gives each unseen card (`false`) the unseen place it had before, if that place is still free
/// among the unseen places now; the others take the places left over, in the order dealt.
fn keep_unseen(now: &mut [&mut (CardPlace, bool)], before: &[&(CardPlace, bool)]) {
    let mut free: Vec<Option<CardPlace>> = now.iter().filter(|c| !c.1).map(|c| Some(c.0)).collect();
    let mut waiting = Vec::new();
    for (k, card) in now.iter_mut().enumerate() {
        if card.1 {
            continue;
        }
        let kept = match before.get(k) {
            Some(&&(place, false)) => free.iter_mut().find(|f| **f == Some(place)).map(|f| f.take()),
            _ => None,
        };
        match kept.flatten() {
            Some(place) => card.0 = place,
            None => waiting.push(k),
        }
    }
    let mut left = free.into_iter().flatten();
    for k in waiting {
        now[k].0 = left.next().unwrap_or(CardPlace::OutOfGame);
    }
}
