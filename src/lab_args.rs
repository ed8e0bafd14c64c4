//! How every lab command (`kqkr`, `tournament`, `trees`, `datagen`, `train`, `generation`)
//! runs clap: the arguments after the command's name are parsed into its `Parser` type,
//! `--help` and `--version` become text to print (exit 0), and any other clap error becomes
//! the message that `main` prints after `nosce <command>: ` (exit 2). Lab only: the engine's own
//! commands are parsed by hand (see `mate::cli`).

/// What a command line turned into.
#[derive(Debug)]
pub enum Parsed<T> {
    /// The parsed arguments.
    Args(T),
    /// Help or version text to print; not an error.
    Text(String),
}

/// Parses `args` (without the program and command names) as `T`, named `name` in help and
/// error texts (e.g. `nosce kqkr`).
///
/// # Errors
/// clap's message for bad input: an unknown option, a missing or malformed value.
pub fn parse<T: clap::Parser>(name: &str, args: &[String]) -> Result<Parsed<T>, String> {
    let argv = std::iter::once(name.to_string()).chain(args.iter().cloned());
    match T::try_parse_from(argv) {
        Ok(a) => Ok(Parsed::Args(a)),
        Err(e) => {
            use clap::error::ErrorKind;
            match e.kind() {
                ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
                    Ok(Parsed::Text(e.render().to_string()))
                }
                _ => Err(e.render().to_string().trim_end().to_string()),
            }
        }
    }
}
