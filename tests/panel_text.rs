//! The panels' letters: over many frames of changing text (new words, new sizes, egui's font
//! atlas filling up and starting over), every letter a frame draws is inked in the font image the
//! renderer holds in that frame, not only in the one the next frame would bring.
#![cfg(feature = "gui")]
use bevy::asset::AssetEvent;
use bevy::prelude::*;
use bevy_egui::egui::{self, epaint::Primitive};
use bevy_egui::{EguiContexts, EguiManagedTextures, EguiPrimaryContextPass, EguiRenderOutput};
use std::collections::HashMap;

/// What the renderer holds: each image as of the last change it was told of. Bevy's renderer
/// copies an image when an `AssetEvent` says it was added or modified (`extract_render_asset`),
/// and this does the same, in the last schedule of the frame, after which the renderer extracts.
#[derive(Resource, Default)]
struct Renderer {
    images: HashMap<AssetId<Image>, Image>,
    frame: u32,
    glyphs: usize,
    /// Frames in which the font image was changed in place (new glyphs) or made anew.
    changed: usize,
    made: usize,
    blank: Vec<String>,
}

/// The text of frame `n`: the words the newcomer saw lose letters, and new ones at a new size,
/// so that most frames rasterize glyphs egui had not drawn before.
fn panels(mut contexts: EguiContexts, renderer: Res<Renderer>) -> Result {
    let ctx = contexts.ctx_mut()?.clone();
    grognard::table::layout::add_serif(&ctx);
    let n = renderer.frame;
    let size = 9.0 + (n % 97) as f32 * 0.37;
    egui::Window::new("Orders").show(&ctx, |ui| {
        for line in ["Army card: Bertrand", "MacDonald", "Draw Terrain: hill", &format!("Time card ({})", n % 13)] {
            ui.label(egui::RichText::new(line).size(size));
        }
        ui.label(format!("die 1 → {} (no result)", n % 6 + 1));
        ui.label(egui::RichText::new(format!("Turn {n}: Ney — Étienne Macdonald")).size(size * 1.3));
    });
    // The serif family is there from the frame after it was added.
    let serif = egui::FontFamily::Name(grognard::table::layout::SERIF.into());
    if ctx.fonts(|f| f.families().contains(&serif)) {
        egui::Window::new("Log").show(&ctx, |ui| {
            ui.label(egui::RichText::new("Leipzig — Möckern").family(serif).size(size + 3.0));
        });
    }
    Ok(())
}

/// For every textured triangle of this frame's egui meshes, the patch of the font image it
/// samples, in the renderer's copy, has ink.
fn check(
    mut events: MessageReader<AssetEvent<Image>>,
    images: Res<Assets<Image>>,
    managed: Res<EguiManagedTextures>,
    outputs: Query<(Entity, &EguiRenderOutput)>,
    mut renderer: ResMut<Renderer>,
) {
    for event in events.read() {
        match event {
            AssetEvent::Added { id } | AssetEvent::Modified { id } => {
                let font = managed.values().any(|t| t.handle.id() == *id);
                match event {
                    AssetEvent::Added { .. } => renderer.made += font as usize,
                    _ => renderer.changed += font as usize,
                }
                if let Some(image) = images.get(*id) {
                    renderer.images.insert(*id, image.clone());
                }
            }
            AssetEvent::Unused { id } => {
                renderer.images.remove(id);
            }
            _ => {}
        }
    }
    let frame = renderer.frame;
    renderer.frame += 1;
    let (mut glyphs, mut blank) = (0, Vec::new());
    for (entity, output) in &outputs {
        for job in &output.paint_jobs {
            let Primitive::Mesh(mesh) = &job.primitive else { continue };
            let egui::TextureId::Managed(id) = mesh.texture_id else { continue };
            let Some(texture) = managed.get(&(entity, id)) else {
                blank.push(format!("frame {frame}: texture {id} unknown"));
                continue;
            };
            let Some(image) = renderer.images.get(&texture.handle.id()) else {
                blank.push(format!("frame {frame}: texture {id} not yet with the renderer"));
                continue;
            };
            let (w, h) = (image.width() as f32, image.height() as f32);
            let data = image.data.as_ref().expect("egui keeps its images in the main world");
            for tri in mesh.indices.chunks(3) {
                let uv = tri.iter().map(|&i| mesh.vertices[i as usize].uv).collect::<Vec<_>>();
                let (x0, x1) =
                    (uv.iter().map(|p| p.x).fold(f32::MAX, f32::min), uv.iter().map(|p| p.x).fold(0.0, f32::max));
                let (y0, y1) =
                    (uv.iter().map(|p| p.y).fold(f32::MAX, f32::min), uv.iter().map(|p| p.y).fold(0.0, f32::max));
                if (x1 - x0) * w < 2.0 || (y1 - y0) * h < 2.0 {
                    continue; // a flat colour (egui's white pixel), not a glyph
                }
                glyphs += 1;
                let (px0, px1) = ((x0 * w) as usize, ((x1 * w).ceil() as usize).min(w as usize));
                let (py0, py1) = ((y0 * h) as usize, ((y1 * h).ceil() as usize).min(h as usize));
                let inked = (py0..py1).any(|y| (px0..px1).any(|x| data[(y * w as usize + x) * 4 + 3] > 0));
                if !inked {
                    blank.push(format!(
                        "frame {frame}: glyph at {px0},{py0} ({}×{} px) is blank",
                        px1 - px0,
                        py1 - py0
                    ));
                }
            }
        }
    }
    renderer.glyphs += glyphs;
    renderer.blank.extend(blank);
}

#[test]
fn every_letter_a_frame_draws_is_inked_in_the_image_the_renderer_holds() {
    let mut app = App::new();
    app.add_plugins((
        MinimalPlugins,
        bevy::asset::AssetPlugin::default(),
        bevy::image::ImagePlugin::default(),
        bevy::window::WindowPlugin::default(),
        bevy::input::InputPlugin,
    ));
    // The renderer's own asset, which egui's plugin registers its shader in.
    app.init_asset::<bevy::shader::Shader>();
    grognard::table::window::egui(&mut app);
    app.init_resource::<Renderer>().add_systems(EguiPrimaryContextPass, panels).add_systems(Last, check);
    app.world_mut().spawn(Camera3d::default());
    for _ in 0..400 {
        app.update();
    }
    let r = app.world().resource::<Renderer>();
    assert!(r.glyphs > 400 * 50, "the panels drew {} glyphs", r.glyphs);
    eprintln!("{} glyphs over 400 frames; the font image changed {} times, made {} times", r.glyphs, r.changed, r.made);
    // Both ways the font image changes were taken many times: new glyphs written into it, and
    // the atlas made anew (grown, or full and started over).
    assert!(r.changed > 100 && r.made > 5, "changed {} times, made {} times", r.changed, r.made);
    // The first frame has no context yet; every later one draws whole words.
    let blank: Vec<_> = r.blank.iter().filter(|b| !b.starts_with("frame 0:")).collect();
    assert!(
        blank.is_empty(),
        "{} blank of {} glyphs: {:?}",
        blank.len(),
        r.glyphs,
        blank.iter().filter(|b| b.contains("is blank")).take(4).chain(blank.iter().take(2)).collect::<Vec<_>>()
    );
}
