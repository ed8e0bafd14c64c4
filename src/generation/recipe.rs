//! The steps of a generation, as the argument lists of `nosce datagen` and `nosce train`:
//! the recipe of `docs/training.md` ("Starting from the hand-crafted evaluation", "The next
//! generation"), by which generations 1 and 2 of `nets/README.md` were made, declared here
//! once.
//!
//! Generation 1: `datagen` with the hand-crafted evaluation; `train --score hce --wdl 0
//! --mirror --walk 3 --lr 0.002 --lr-drop 16 --lr-gamma 0.3` (the imitation); `train --init`
//! its checkpoint `--mirror --lr 0.0003 --batch 4096` (the fit). Generation *k* > 1:
//! `datagen --evalfile` generation *k* − 1's best net; the fit on every generation's data so
//! far, `--init` generation *k* − 1's final fit checkpoint.

use std::path::{Path, PathBuf};

use super::args::GenerationConfig;

/// The imitation run's options (besides data, output, epochs and the options passed on).
pub const IMITATE: &[&str] = &[
    "--score",
    "hce",
    "--wdl",
    "0",
    "--mirror",
    "--walk",
    "3",
    "--lr",
    "0.002",
    "--lr-drop",
    "16",
    "--lr-gamma",
    "0.3",
];

/// The fit's options (besides data, output, epochs, `--init` and the options passed on).
pub const FIT: &[&str] = &["--mirror", "--lr", "0.0003", "--batch", "4096"];

/// Which command a step runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    /// `nosce datagen`.
    Datagen,
    /// `nosce train`.
    Train,
}

/// One step of a generation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Step {
    /// The generation (1-based).
    pub generation: u32,
    /// The step's name in the log: `datagen`, `imitate` or `fit`.
    pub name: &'static str,
    /// The command it runs.
    pub tool: Tool,
    /// The arguments after the command's name.
    pub args: Vec<String>,
}

/// Generation `k`'s folder.
pub fn gen_dir(dir: &Path, k: u32) -> PathBuf {
    dir.join(format!("gen{k}"))
}

/// Generation `k`'s data file.
pub fn data_file(dir: &Path, k: u32) -> PathBuf {
    gen_dir(dir, k).join("data.bin")
}

/// Generation `k`'s fit directory (its nets, `train.log` and `checkpoint.bin`).
pub fn fit_dir(dir: &Path, k: u32) -> PathBuf {
    gen_dir(dir, k).join("net")
}

/// Generation 1's imitation directory.
pub fn imitate_dir(dir: &Path) -> PathBuf {
    gen_dir(dir, 1).join("imitate")
}

fn path(p: &Path) -> String {
    p.display().to_string()
}

fn passed_on(args: &mut Vec<String>, pairs: &[(&'static str, String)]) {
    for (name, value) in pairs {
        args.push((*name).to_string());
        args.push(value.clone());
    }
}

fn words(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| (*s).to_string()).collect()
}

/// A `train` step of generation `k`: `--data`, `--out`, `--epochs`, the recipe's `options`,
/// then the options passed on.
fn train_step(
    cfg: &GenerationConfig,
    k: u32,
    name: &'static str,
    data: &str,
    out: &Path,
    epochs: u32,
    options: &[&str],
) -> Step {
    let mut args = vec![
        "--data".to_string(),
        data.to_string(),
        "--out".to_string(),
        path(out),
        "--epochs".to_string(),
        epochs.to_string(),
    ];
    args.extend(words(options));
    passed_on(&mut args, &cfg.train);
    Step {
        generation: k,
        name,
        tool: Tool::Train,
        args,
    }
}

/// The steps of generation `k`; `previous_net` is generation `k` − 1's best net (`None`
/// for generation 1).
pub fn steps(cfg: &GenerationConfig, k: u32, previous_net: Option<&Path>) -> Vec<Step> {
    let dir = &cfg.dir;
    let mut datagen = vec![
        "--out".to_string(),
        path(&data_file(dir, k)),
        "--games".to_string(),
        cfg.games_of(k).to_string(),
        "--seed".to_string(),
        (cfg.seed + u64::from(k) - 1).to_string(),
    ];
    passed_on(&mut datagen, &cfg.datagen);
    if let Some(net) = previous_net {
        datagen.push("--evalfile".to_string());
        datagen.push(path(net));
    }
    let mut out = vec![Step {
        generation: k,
        name: "datagen",
        tool: Tool::Datagen,
        args: datagen,
    }];
    let all_data = (1..=k)
        .map(|g| path(&data_file(dir, g)))
        .collect::<Vec<_>>()
        .join(",");
    let init = if k == 1 {
        let data = path(&data_file(dir, 1));
        out.push(train_step(
            cfg,
            k,
            "imitate",
            &data,
            &imitate_dir(dir),
            cfg.imitate_epochs,
            IMITATE,
        ));
        imitate_dir(dir).join("checkpoint.bin")
    } else {
        fit_dir(dir, k - 1).join("checkpoint.bin")
    };
    let mut fit = train_step(cfg, k, "fit", &all_data, &fit_dir(dir, k), cfg.epochs, FIT);
    fit.args.splice(6..6, ["--init".to_string(), path(&init)]);
    out.push(fit);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cfg() -> GenerationConfig {
        GenerationConfig {
            dir: PathBuf::from("lineage"),
            gens: 2,
            seed: 2,
            games: vec![100],
            datagen: vec![("--threads", "2".to_string())],
            train: vec![("--threads", "2".to_string())],
            imitate_epochs: 48,
            epochs: 12,
        }
    }

    #[test]
    fn generation_one_imitates_then_fits_and_later_ones_play_the_last_net() {
        let one = steps(&cfg(), 1, None);
        let names: Vec<_> = one.iter().map(|s| s.name).collect();
        assert_eq!(names, ["datagen", "imitate", "fit"]);
        let dg = one[0].args.join(" ");
        assert!(
            dg.contains("--seed 2") && dg.contains("--games 100"),
            "{dg}"
        );
        assert!(!dg.contains("--evalfile"), "{dg}");
        let fit = one[2].args.join(" ");
        assert!(fit.contains(&format!(
            "--init {}",
            path(&imitate_dir(Path::new("lineage")))
        )));
        let net = PathBuf::from("lineage/gen1/net/nosce-x.nnue");
        let two = steps(&cfg(), 2, Some(&net));
        let names: Vec<_> = two.iter().map(|s| s.name).collect();
        assert_eq!(names, ["datagen", "fit"]);
        let dg = two[0].args.join(" ");
        assert!(dg.contains("--seed 3") && dg.contains("--evalfile"), "{dg}");
        let fit = &two[1].args;
        let data = &fit[fit.iter().position(|a| a == "--data").unwrap() + 1];
        assert_eq!(data.split(',').count(), 2, "{data}");
        let init = &fit[fit.iter().position(|a| a == "--init").unwrap() + 1];
        assert_eq!(
            Path::new(init),
            fit_dir(Path::new("lineage"), 1).join("checkpoint.bin")
        );
        assert!(fit.join(" ").ends_with("--threads 2"));
    }
}
