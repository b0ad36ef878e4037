//! Sound, for any game's table (View → Sound turns it off): the dice knock each time the physics
//! of their throw has them strike the tray or each other, louder the harder the strike; a card
//! turning over swishes; a piece set down taps. The sounds are synthesised at start (no recorded
//! files to license), short, and never played while a screenshot is being taken.

use bevy::audio::{AudioPlayer, AudioSource, PlaybackSettings, Volume};
use bevy::prelude::*;

/// What the table asks to be heard.
#[derive(Message, Clone, Copy, Debug, PartialEq)]
pub enum Cue {
    /// A die strikes something; its loudness 0..1.
    Knock(f32),
    /// A card turns over.
    Flip,
    /// A piece is set down.
    SetDown,
}

#[derive(Resource)]
struct Sounds {
    knock: Handle<AudioSource>,
    flip: Handle<AudioSource>,
    set_down: Handle<AudioSource>,
}

pub struct SoundPlugin;

impl Plugin for SoundPlugin {
    fn build(&self, app: &mut App) {
        app.add_message::<Cue>().add_systems(Startup, make_sounds).add_systems(PostUpdate, play_cues);
    }
}

const RATE: u32 = 22_050;

/// A mono 16-bit WAV file of `samples` (-1..1).
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data_len = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data_len as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data_len).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data_len.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32_000.0) as i16).to_le_bytes());
    }
    out
}

/// A small deterministic noise source (the sounds are the same at every start).
fn noise(n: usize, seed: u32) -> Vec<f32> {
    let mut x = seed.wrapping_mul(747_796_405).wrapping_add(2_891_336_453);
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x as f32 / u32::MAX as f32) * 2.0 - 1.0
        })
        .collect()
}

/// A die striking wood: a bright click of two damped partials over a burst of noise.
pub fn knock() -> Vec<f32> {
    let n = (RATE as f32 * 0.05) as usize;
    let hiss = noise(n, 1);
    (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let ring =
                (t * 1900.0 * std::f32::consts::TAU).sin() * 0.5 + (t * 3300.0 * std::f32::consts::TAU).sin() * 0.3;
            (ring * (-t / 0.007).exp() + hiss[i] * 0.6 * (-t / 0.002).exp()) * 0.8
        })
        .collect()
}

/// A card turning over: a soft swish of low-passed noise, swelling and fading.
pub fn flip() -> Vec<f32> {
    let n = (RATE as f32 * 0.11) as usize;
    let hiss = noise(n, 2);
    let mut low = 0.0;
    (0..n)
        .map(|i| {
            let t = i as f32 / 0.11 / RATE as f32;
            low += (hiss[i] - low) * 0.25;
            low * (t * std::f32::consts::PI).sin().powi(2) * 0.9
        })
        .collect()
}

/// A piece set down on the board: a low, short tap.
pub fn set_down() -> Vec<f32> {
    let n = (RATE as f32 * 0.07) as usize;
    let hiss = noise(n, 3);
    (0..n)
        .map(|i| {
            let t = i as f32 / RATE as f32;
            let thump = (t * 240.0 * std::f32::consts::TAU).sin() * (-t / 0.012).exp();
            (thump * 0.7 + hiss[i] * 0.25 * (-t / 0.003).exp()) * 0.7
        })
        .collect()
}

fn make_sounds(mut commands: Commands, mut sources: ResMut<Assets<AudioSource>>) {
    let mut add = |samples: Vec<f32>| sources.add(AudioSource { bytes: wav(&samples).into() });
    let (knock, flip, set_down) = (add(knock()), add(flip()), add(set_down()));
    commands.insert_resource(Sounds { knock, flip, set_down });
}

fn play_cues(
    mut cues: MessageReader<Cue>,
    sounds: Option<Res<Sounds>>,
    prefs: Res<super::session::Preferences>,
    shot: Option<Res<super::session::ScreenshotJob>>,
    mut commands: Commands,
) {
    let Some(sounds) = sounds else { return };
    let shooting = shot.is_some_and(|s| s.0.is_some());
    // At most a few sounds a frame: a throw of many dice rattles, it does not roar.
    for cue in cues.read().take(4) {
        if !prefs.sound || shooting {
            continue;
        }
        let (source, volume) = match *cue {
            Cue::Knock(loud) => (sounds.knock.clone(), 0.15 + 0.85 * loud.clamp(0.0, 1.0)),
            Cue::Flip => (sounds.flip.clone(), 0.6),
            Cue::SetDown => (sounds.set_down.clone(), 0.7),
        };
        commands.spawn((AudioPlayer(source), PlaybackSettings::DESPAWN.with_volume(Volume::Linear(volume))));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sounds_are_short_wav_files_that_start_loud_and_end_quiet() {
        for (name, s) in [("knock", knock()), ("flip", flip()), ("set down", set_down())] {
            let bytes = wav(&s);
            assert_eq!(&bytes[..4], b"RIFF", "{name}");
            assert_eq!(bytes.len(), 44 + s.len() * 2, "{name}");
            assert!(s.len() < RATE as usize / 5, "{name} lasts under 0.2 s");
            let peak = s.iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!(peak > 0.1 && peak <= 1.0, "{name}: peak {peak}");
            let tail = s[s.len() * 9 / 10..].iter().fold(0.0f32, |m, v| m.max(v.abs()));
            assert!(tail < peak / 4.0, "{name} fades out: tail {tail}, peak {peak}");
        }
    }
}
