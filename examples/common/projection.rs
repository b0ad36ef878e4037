//! Where a point of the table appears in the window (1280×800) through a game's home view: the
//! hands of `scripts/window-game.py` aim with it.

pub type V3 = [f32; 3];

const W: f32 = 1280.0;
const H: f32 = 800.0;

fn sub(a: V3, b: V3) -> V3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn dot(a: V3, b: V3) -> f32 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: V3, b: V3) -> V3 {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn norm(a: V3) -> V3 {
    let l = dot(a, a).sqrt();
    [a[0] / l, a[1] / l, a[2] / l]
}

/// A home view: the orbit camera's focus, distance and pitch (yaw 0), Bevy's default
/// perspective (45° vertical field of view).
pub struct View {
    pub focus: V3,
    pub distance: f32,
    pub pitch: f32,
}

impl View {
    /// A table point in window pixels.
    pub fn screen(&self, p: V3) -> (i32, i32) {
        let (focus, dist, pitch) = (self.focus, self.distance, self.pitch);
        let eye = [focus[0], focus[1] + dist * pitch.sin(), focus[2] + dist * pitch.cos()];
        let f = norm(sub(focus, eye));
        let r = norm(cross(f, [0.0, 1.0, 0.0]));
        let u = cross(r, f);
        let d = sub(p, eye);
        let (x, y, z) = (dot(d, r), dot(d, u), dot(d, f));
        let t = (std::f32::consts::FRAC_PI_4 / 2.0).tan();
        let nx = x / (z * t * W / H);
        let ny = y / (z * t);
        (((nx + 1.0) / 2.0 * W).round() as i32, ((1.0 - ny) / 2.0 * H).round() as i32)
    }
}
