# Command line: help texts, catalogue listing, errors about arguments and content folders.

cli-about = Learn to run AMD's ROCm GPU stack: lessons, quizzes and hands-on labs, in English, Japanese and Korean.
cli-usage = Usage
cli-commands = Commands
cli-options = Options
cli-help = Show this help
cli-version = Show the version
cli-lang = Language of the interface and the course (default: ROCM_LEARN_LANG, then the language last picked in the app, then the system locale, then en)
cli-content = Use the content pack in DIR (a folder or a .tar.gz) instead of the built-in course; ROCM_LEARN_CONTENT does the same
cli-json = Print the result as JSON (format in the README)
cli-csv = Print the result as CSV
cli-plain = Line mode: numbered choices, no full-screen drawing (for screen readers and scripts)
cli-list = List the lessons, quizzes and labs
cli-check = Check a content tree and report every problem as path:line:col
cli-lesson = Read a lesson
cli-lesson-id = The lesson's id (see `rocm-learn list`)
cli-quiz = Take a quiz
cli-quiz-id = The quiz's id (see `rocm-learn list`)
cli-retry-wrong = Ask only the questions you answered wrong last time
cli-lab = Open a hands-on lab
cli-lab-id = The lab's id (see `rocm-learn list`)
cli-script = Type each line of FILE into the lab's shell and grade the result
cli-progress = Show or export your progress
cli-report = Summarise a class from exported progress files
cli-report-files = Progress exported with `rocm-learn progress --json`: files, folders of them (a class submit folder), or - for standard input
cli-doctor = Check this machine's real ROCm setup (read-only)
cli-learner = Your name in exported progress (saved; default: the login name)
cli-progress-reset = Forget your progress on one item, or on everything
cli-reset-id = A lesson, quiz or lab id, qualified where a lesson and a quiz share it (quiz:history); omit it to reset everything
cli-yes = Do not ask for confirmation
cli-bad-env-lang = ROCM_LEARN_LANG is set to "{ $value }", which is not a language rocm-learn speaks (en, ja, ko); ignoring it.
cli-not-yet = { $what ->
    [app] The full-screen app is not available yet. Try `rocm-learn list`, `rocm-learn lesson ID` or `rocm-learn quiz ID`.
   *[other] `rocm-learn { $what }` is not available yet.
}
cli-plain-hint = For the full-screen app run rocm-learn in a terminal; here, use rocm-learn lesson ID, rocm-learn quiz ID and rocm-learn lab ID, which work line by line.
cli-unknown-id = There is no { $kind ->
    [lesson] lesson
    [quiz] quiz
    [lab] lab
    [item] item
   *[other] { $kind }
} "{ $id }". Available: { $known }
cli-content-has-errors = The content has { $count ->
    [one] one error
   *[other] { $count } errors
}; fix { $count ->
    [one] it
   *[other] them
} and run `rocm-learn check` to confirm.

content-dir-missing = The content folder { $dir } does not exist.
content-dir-empty = { $dir } holds none of the content folders ({ $expected }); is it the right folder?
content-unreadable = could not be read: { $error }
content-not-utf8 = is not UTF-8 text; save it as UTF-8.
content-too-large = is larger than { $max } bytes, too large for a content file.
hostfs-link = is a symbolic link; links are not followed here. Put the file itself in the folder.
hostfs-not-regular = is not a regular file ({ $kind }); only regular files are read.
hostfs-too-large = is larger than { $max } bytes; not read.
hostfs-too-many = holds more than { $max } entries; the rest of the folder was not read.
hostfs-too-deep = lies more than { $max } folders deep; not read.
hostfs-too-much = brings the files read past { $max } bytes in all; the rest of the folder was not read.
hostfs-deadline = took longer than { $secs } s to read; the rest of the folder was not read.

list-lessons = Lessons
list-quizzes = Quizzes
list-labs = Labs
list-none-yet = (none yet)
list-quiz-line = { $title } ({ $count ->
    [one] 1 question
   *[other] { $count } questions
})

progress-corrupt = Your progress file { $path } could not be read, so it was moved to { $moved } and a fresh one was started. Nothing was deleted.
progress-too-new = { $path } was written by a newer rocm-learn (format { $version }); update rocm-learn to keep using it. It was left untouched.
progress-no-home = Could not find a folder for your progress; set { $env } to a writable folder.
progress-read-failed = Could not read { $path }: { $error }
progress-write-failed = Could not save progress to { $path }: { $error }. Your answers still count for this run; check the folder's permissions or set ROCM_LEARN_DATA_DIR.

progress-summary-title = Progress of { $name }
progress-status-not-started = not started
progress-status-started = started
progress-status-done = done
progress-learner-saved = From now on your exports are signed "{ $name }".
progress-reset-confirm-one = Forget your progress on { $id }?
progress-reset-confirm-all = Forget all your progress: lessons, quizzes and labs?
progress-reset-need-yes = Resetting needs a confirmation: run it in a terminal to be asked, or add --yes.
progress-reset-done = Done: that progress is forgotten.
report-title = Class report: { $count ->
    [one] 1 learner
   *[other] { $count } learners
}{ $skipped ->
    [0] {""}
   *[other] { " " }({ $skipped } skipped)
}
report-col-learner = Learner
report-col-lessons = Lessons
report-col-quizzes = Quizzes
report-col-right = Right
report-col-labs = Labs
report-hardest = Hardest questions
report-wrong-of = wrong for { $wrong } of { $answered } learners
report-top-wrong = most chose { $n }) { $option } ({ $times }×)
report-stuck = Where learners got stuck in labs
report-stuck-count = { $count ->
    [one] 1 learner stuck here
   *[other] { $count } learners stuck here
}
report-none = (none)
report-skipped = { $file }: not a rocm-learn progress export ({ $reason }); skipped.
report-no-files = None of the files is a progress export; ask learners to run `rocm-learn progress --json > NAME.json`.
cli-report-json = Print the report as JSON (the schema is in the README)
cli-report-lrs = Build the report from the learning record store (ROCM_LEARN_LRS) instead of files
cli-report-trust-new-keys = Take files signed by a key a learner has not used before (a second machine)
cli-report-class = A class folder of rocm-learn serve: results its server signed are marked as computed by the server (its own submit folder counts without this)
cli-lrs = Learning record store (xAPI): where class results are sent
cli-lrs-status = Send the statements that wait, then say how many still wait and why
