//! A game's table map (`map.ron` beside its scenarios): the geography its board is painted from —
//! coastlines, rivers, the places' real positions — with its provenance and credit. Only the view
//! reads it: it never changes the rules, a scenario's digest or a save, and a game without one is
//! painted from its scenario alone.

use super::scenario::{DataError, Provenance, load_ron};
use serde::Deserialize;
use std::path::Path;

/// The file name a game's table map has in its scenario folder.
pub const FILE: &str = "map.ron";
/// Limits far above any real map, so that no file can make the painter work without end.
pub const MAX_POLYGONS: usize = 2_000;
pub const MAX_POINTS: usize = 200_000;
pub const MAX_COORD: f32 = 1_000.0;

/// How geographic coordinates (longitude, latitude in degrees) become the table's (x east,
/// z south): an equirectangular projection about `centre`, `scale` table units a degree of
/// latitude, with `centre` placed at `table`.
#[derive(Clone, Copy, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Projection {
    pub centre: (f32, f32),
    pub scale: f32,
    pub table: (f32, f32),
}

impl Projection {
    pub fn to_table(&self, (lon, lat): (f32, f32)) -> (f32, f32) {
        let k = self.centre.1.to_radians().cos();
        (self.table.0 + (lon - self.centre.0) * k * self.scale, self.table.1 - (lat - self.centre.1) * self.scale)
    }
}

/// A river's course, from source to mouth, and its width at the mouth (table units).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct River {
    pub name: String,
    pub width: f32,
    pub course: Vec<(f32, f32)>,
}

/// The file as written. Coordinates are longitude and latitude when there is a projection, the
/// board's own units (x east, y north) otherwise.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableMap {
    pub provenance: Provenance,
    /// Whose data it is and under which licence.
    pub credit: String,
    #[serde(default)]
    pub projection: Option<Projection>,
    /// Where the scenario's places really lie, by name.
    #[serde(default)]
    pub places: Vec<(String, (f32, f32))>,
    /// Land polygons: where there are any, the rest is sea.
    #[serde(default)]
    pub land: Vec<Vec<(f32, f32)>>,
    #[serde(default)]
    pub rivers: Vec<River>,
}

impl TableMap {
    /// Reads and checks a table map: every coordinate a finite number within range, polygons and
    /// rivers with enough points, and no more of them than the limits.
    pub fn load(path: &Path) -> Result<TableMap, DataError> {
        let (map, text): (TableMap, String) = load_ron(path)?;
        let whole = |m: String| DataError::whole_file(path, m);
        if map.land.len() + map.rivers.len() > MAX_POLYGONS {
            return Err(whole(format!("fields `land` and `rivers`: more than {MAX_POLYGONS} lines in all")));
        }
        let points: usize =
            map.land.iter().map(Vec::len).sum::<usize>() + map.rivers.iter().map(|r| r.course.len()).sum::<usize>();
        if points > MAX_POINTS {
            return Err(whole(format!("fields `land` and `rivers`: more than {MAX_POINTS} points in all")));
        }
        let bad =
            |p: &(f32, f32)| !(p.0.is_finite() && p.1.is_finite() && p.0.abs() <= MAX_COORD && p.1.abs() <= MAX_COORD);
        let at = |field: &str, needle: &str, m: String| DataError::at_text(path, &text, field, needle, m);
        for (name, p) in &map.places {
            if bad(p) {
                return Err(at("places", name, format!("field `places`: `{name}` lies outside ±{MAX_COORD}")));
            }
        }
        for (i, poly) in map.land.iter().enumerate() {
            if poly.len() < 3 || poly.iter().any(bad) {
                return Err(at(
                    "land",
                    "[",
                    format!("field `land`: polygon {} needs 3 points or more, each within ±{MAX_COORD}", i + 1),
                ));
            }
        }
        for r in &map.rivers {
            if r.course.len() < 2 || r.course.iter().any(bad) || !(0.0..=10.0).contains(&r.width) {
                return Err(at(
                    "rivers",
                    &r.name,
                    format!(
                        "field `rivers`: `{}` needs 2 points or more within ±{MAX_COORD} and a width from 0 to 10",
                        r.name
                    ),
                ));
            }
        }
        if let Some(p) = map.projection
            && !(p.scale > 0.0 && p.scale <= 100.0 && p.centre.1.abs() < 89.0 && !bad(&p.centre) && !bad(&p.table))
        {
            return Err(at(
                "projection",
                "projection",
                "field `projection`: a scale from 0 to 100 and a centre off the poles".into(),
            ));
        }
        Ok(map)
    }

    /// A point of the file on the table (x east, z south).
    pub fn to_table(&self, p: (f32, f32)) -> (f32, f32) {
        match &self.projection {
            Some(proj) => proj.to_table(p),
            None => (p.0, -p.1),
        }
    }

    /// Where a place lies on the table, when the map knows it.
    pub fn place(&self, name: &str) -> Option<(f32, f32)> {
        self.places.iter().find(|(n, _)| n == name).map(|(_, p)| self.to_table(*p))
    }

    /// The map beside a scenario, when there is one; a broken one is reported and left out.
    pub fn beside(scenario: &Path) -> Option<TableMap> {
        let file = scenario.parent()?.join(FILE);
        if !file.exists() {
            return None;
        }
        match TableMap::load(&file) {
            Ok(m) => Some(m),
            Err(e) => {
                eprintln!("{e} (the table is painted without it)");
                None
            }
        }
    }

    /// What `validate` says of a table map.
    pub fn summary(&self) -> String {
        format!(
            "table map: {} places, {} land polygons, {} rivers ({})",
            self.places.len(),
            self.land.len(),
            self.rivers.len(),
            self.provenance.label()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn load(text: &str) -> Result<TableMap, DataError> {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join(FILE);
        std::fs::write(&p, text).unwrap();
        TableMap::load(&p)
    }

    #[test]
    fn a_projection_puts_its_centre_on_the_table_and_north_up() {
        let p = Projection { centre: (10.0, 45.0), scale: 2.0, table: (1.0, 0.0) };
        assert_eq!(p.to_table((10.0, 45.0)), (1.0, 0.0));
        let (x, z) = p.to_table((11.0, 46.0));
        assert!((x - (1.0 + 2.0 * 45f32.to_radians().cos())).abs() < 1e-5);
        assert_eq!(z, -2.0, "north is away from the French seat (negative z)");
    }

    #[test]
    fn a_bad_table_map_names_its_file_line_and_field() {
        let ok = "(provenance: Reconstructed(\"x\"), credit: \"y\", land: [[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0)]])";
        assert_eq!(load(ok).unwrap().land.len(), 1);
        let e =
            load("(provenance: Reconstructed(\"x\"), credit: \"y\",\n land: [[(0.0, 0.0), (1.0, 0.0)]])").unwrap_err();
        assert!(e.message.contains("field `land`") && e.line == 2, "{e}");
        let e = load("(provenance: Reconstructed(\"x\"), credit: \"y\",\n rivers: [(name: \"Elster\", width: 0.1, course: [(0.0, 5000.0), (1.0, 1.0)])])")
            .unwrap_err();
        assert!(e.message.contains("`Elster`") && e.line == 2, "{e}");
        let e = load("(provenance: Reconstructed(\"x\"), credit: \"y\", colour: 3)").unwrap_err();
        assert!(e.message.contains("colour"), "{e}");
    }
}
