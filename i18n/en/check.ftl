# Diagnostics of `rocm-learn check`: each follows "path:line:col: error:".

check-summary = { $errors ->
    [0] No errors
    [one] 1 error
   *[other] { $errors } errors
}, { $warnings ->
    [0] no warnings
    [one] 1 warning
   *[other] { $warnings } warnings
} ({ $lessons ->
    [one] 1 lesson
   *[other] { $lessons } lessons
}, { $quizzes ->
    [one] 1 quiz
   *[other] { $quizzes } quizzes
} with { $questions ->
    [one] 1 question
   *[other] { $questions } questions
}, { $labs ->
    [one] 1 lab
   *[other] { $labs } labs
}, { $terms } glossary terms).
check-toml-syntax = malformed TOML: { $detail }
check-ftl-syntax = this Fluent file does not parse: { $detail }

check-missing-key = the { check-what } has no `{ $key }`; add it.
check-unknown-key = unknown key `{ $key }` in the { check-what }; expected one of: { $expected }
check-wrong-type = `{ $key }` must be { $expected ->
    [integer] an integer
    [array] an array
    [boolean] a boolean (true or false)
    [table] a table
    [array-of-tables] an array of tables ([[...]])
    [languages] a table of languages (en, ja, ko) or a string
   *[other] a string
}, not { $found ->
    [integer] an integer
    [array] an array
    [boolean] a boolean
    [table] a table
    [float] a number with a fraction
    [datetime] a date
   *[other] a string
}.
check-bad-id = "{ $id }" is not a valid id: use lowercase letters, digits and dashes (for example "hsa-init-failed").
check-duplicate-id = the { check-kind } id "{ $id }" is already used at { $first }.
check-empty-text = `{ $key }` is empty; write the text or remove the key.
check-unknown-lang = "{ $lang }" is not a course language; use en, ja or ko.
check-missing-translation = `{ $key }` has no { $lang ->
    [ja] Japanese
    [ko] Korean
   *[en] English
} text ({ $lang }); learners will see another language.
check-dangling-ref = no { check-kind } has the id "{ $id }". Known: { $known }
check-bad-link = "{ $link }" is not a valid link into the course; write it as term:ID, lesson:ID, quiz:ID or lab:ID.
check-file-missing = this file is missing.
check-bad-floor = { $floor } is not a floor of the building; floors are 1 (hardware) to 5 (application).
check-floor-missing = floor { $floor } is missing; the building needs floors 1 to 5.
check-bad-category = "{ $category }" is not a glossary category; use one of: { $expected }.
check-quiz-empty = the quiz "{ $id }" has no questions; add at least one [[questions]] table.
check-quiz-stray-file = only .toml files belong in quizzes/; this file is ignored.
check-too-few-options = the question "{ $id }" needs at least two options.
check-too-many-options = the question "{ $id }" has more than { $max } options, too many to answer with one key.
check-correct-count = the question "{ $id }" has { $count ->
    [0] no correct option
   *[other] { $count } correct options
}; mark exactly one option with `correct = true`.
check-option-no-why = this option has no explanation: add `why` saying why it is right, or which misconception makes it wrong.
check-no-front-matter = a lesson file starts with front matter between +++ lines holding at least `title = "..."`.
check-front-matter-unclosed = the front matter is not closed; add a line with +++ after it.
check-lesson-no-meta = this lesson folder has no lesson.toml (with at least `id = "..."`).
check-lesson-no-text = the lesson "{ $id }" has no text in any language; add en.md, ja.md or ko.md.
check-lesson-missing-lang = the lesson "{ $id }" has no { $lang ->
    [ja] Japanese
    [ko] Korean
   *[en] English
} text yet ({ $file }).
check-lesson-bad-lang-file = "{ $name }" is not a lesson language file; name it en.md, ja.md or ko.md.
check-lesson-stray-file = lessons live in folders (lessons/NN-name/); this file is ignored.
check-ftl-file-missing = { $file } is missing; every UI text file needs a version in each language the pack promises (`languages` in pack.toml).
check-ftl-missing-id = the message "{ $id }" is missing from { $file } ({ $lang }); the interface would show English there.
check-ftl-extra-id = the message "{ $id }" is not in the English file; it is never shown.
check-ftl-no-english = "{ $name }" has no English version; its messages are never shown.
check-ftl-stray-file = only i18n/en, i18n/ja and i18n/ko with .ftl files are read; this file is ignored.
check-literal-emphasis = these ** or __ will show as text, not emphasis: CommonMark does not close emphasis after punctuation such as 。 or ) when a letter follows. Move the punctuation outside: **強調**。
check-bad-status = "{ $status }" is not a support status; use supported, deprecated or unsupported.
check-bad-mode = "{ $mode }" is not a file mode; write it in octal, like "0644" or "0755".
check-path-not-absolute = "{ $path }" must be an absolute path inside the lab machine, like /home/learner/notes.txt.
check-lab-no-steps = the lab "{ $id }" has no steps; add at least one [[steps]] table with a check.
check-bad-way = "{ $way }" is not a way to take a lab; use guided (the checklist names what to do) or challenge (only goals, shown as they are met).
check-unknown-check = "{ $check }" is not a check rocm-learn knows; use one of: { $expected }

# Names of the things a diagnostic is about.
check-what = { $what ->
    [front-matter] front matter
    [elevator-step] elevator step
    [lesson] lesson.toml
   *[other] { $what }
}
check-kind = { $kind ->
   *[other] { $kind }
}
check-terminology = Terminology: { $rows } terms of docs/terminology.md, held in the lessons, labs (briefings, steps, hints, solutions), quizzes, glossary and the app's messages, lab reasons included.
