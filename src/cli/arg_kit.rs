//! The pieces commands are defined with: flags, options and subcommands whose help texts and
//! headings come from the Fluent catalogue in the learner's language.

use clap::{Arg, ArgAction, Command};

use crate::i18n::I18n;

/// What the commands' arguments are made of, with help texts and headings in the learner's
/// language: clap lays out the sections, only the words are ours.
pub(super) struct ArgKit<'a> {
    pub(super) i18n: &'a I18n,
    pub(super) template: String,
    pub(super) options: String,
    pub(super) arguments: String,
}

impl<'a> ArgKit<'a> {
    pub(super) fn new(i18n: &'a I18n) -> Self {
        ArgKit {
            i18n,
            template: format!(
                "{{about}}\n\n{}: {{usage}}\n\n{{all-args}}\n",
                i18n.t("cli-usage")
            ),
            options: i18n.t("cli-options"),
            arguments: i18n.t("cli-arguments"),
        }
    }

    pub(super) fn t(&self, id: &str) -> String {
        self.i18n.t(id)
    }

    pub(super) fn help(&self) -> Arg {
        Arg::new("help")
            .short('h')
            .long("help")
            .action(ArgAction::Help)
            .help(self.t("cli-help"))
            .help_heading(self.options.clone())
    }

    pub(super) fn flag(&self, name: &'static str, help: &str) -> Arg {
        Arg::new(name)
            .long(name)
            .action(ArgAction::SetTrue)
            .help(self.t(help))
            .help_heading(self.options.clone())
    }

    /// `--name VALUE`.
    pub(super) fn option(&self, name: &'static str, value: &'static str, help: &str) -> Arg {
        Arg::new(name)
            .long(name)
            .value_name(value)
            .help(self.t(help))
            .help_heading(self.options.clone())
    }

    pub(super) fn json(&self) -> Arg {
        self.flag("json", "cli-json")
    }

    pub(super) fn plain(&self) -> Arg {
        self.flag("plain", "cli-plain")
    }

    pub(super) fn id(&self, help: &str) -> Arg {
        Arg::new("id")
            .required(true)
            .value_name("ID")
            .help(self.t(help))
            .help_heading(self.arguments.clone())
    }

    /// A subcommand; the help flag goes last so that the arguments' section comes before the
    /// options'.
    pub(super) fn sub(&self, name: &'static str, about: &str, args: Vec<Arg>) -> Command {
        Command::new(name)
            .about(self.t(about))
            .help_template(self.template.clone())
            .subcommand_help_heading(self.t("cli-commands"))
            .disable_help_flag(true)
            .args(args)
            .arg(self.help())
    }
}
