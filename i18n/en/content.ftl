# Course-writing rules of `rocm-learn check`: one word per idea, and answers that do not give
# themselves away by length.
cli-check-stats = Also print, per quiz and language, how often the right option is the longest
check-stats-title = How often the right option is the strictly longest (a learner who picks the longest option scores this):
check-stats-quiz = quiz
check-stats-course = whole course
check-stats-legend = * more than a third of the quiz's questions: check warns.
content-longest-right = in { $lang ->
    [ja] Japanese
    [ko] Korean
   *[en] English
}, the right option of "{ $quiz }" is the strictly longest in { $longest } of { $questions } questions, more than a third: learners can pass by picking the longest. Shorten right options or write distractors of the same length.
content-term-variant = "{ $variant }" is a variant the course avoids; write "{ $preferred }" (see { $table }).
content-term-bad-row = this terminology row has { $count } cells; it needs { $expected }: Term, en, ja, ko, Avoid (en), Avoid (ja), Avoid (ko).
content-term-no-table = no terminology table here; it starts with the header row { $header }.
check-cues-longest = Right option the longest, ties counted (at most 25%): { $shares }
content-cue-longest = in { $lang ->
    [ja] Japanese
    [ko] Korean
   *[en] English
}, the right option is the longest or tied for longest in { $share } of the course's questions, more than a quarter: a learner who picks the longest option passes too often. Shorten right options or lengthen distractors where the right one stands out.
content-term-unlisted = the glossary term "{ $term }" ({ $name }) has no row here: add one with its word in each language and the variants to avoid, so check can hold the course to it.
