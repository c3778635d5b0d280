# Spaced review (`review`) and exams (`exam`).

cli-review = Review what is due: missed questions again, missed lab steps as drills
cli-review-drill = Drill one missed lab step (as `review` lists it: lab:ID/STEP)
cli-review-script = Type each line of FILE (- for standard input) into the drill's shell and grade it
review-bad-now = { $name } is not a time: "{ $value }". Write it as RFC 3339 in UTC, for example 2027-03-01T09:00:00Z.
review-none-scheduled = Nothing to review yet: questions and lab steps come here once you have answered or tried them.
review-none-due-until = Nothing is due for review now. The next item is due at { $when }.
review-intro = Due for review: { $questions } questions and { $steps } lab steps. Answer by number or letter; end input (Ctrl-D) to stop, and the answers so far are kept.
review-question-of = Review { $n } of { $total } (from { $quiz })
review-score = Review done: { $score } of { $total } right. Missed ones come back sooner, the others later.
review-drills = Lab steps to drill ({ $count }): each runs the lab's machine with only that step to do.
review-drill-unknown = No lab step "{ $drill }". Name it as `rocm-learn review` lists it, for example lab:hsa-init-failed/add-groups.
review-drill-needs-script = A drill takes its commands from a file: add --script FILE, or --script - to type them on standard input.
review-drill-met = Drill done: the step is met.
review-drill-unmet = Drill not done: the step is not met yet. It stays due, so you can try it again.
cli-exam = Take an exam: questions drawn from the quizzes, a time limit and a pass mark
cli-exam-id = The exam's id (see the pack's exams/ folder; built in: rocm-deploy)
exam-plain-intro = Exam: { $title }. { $count } questions, { $minutes } minutes, pass mark { $percent }%. No hints; every answer is explained at the end. Answer by number or letter.
exam-question-of = Question { $n } of { $total }   { $left }
exam-time-up = Time is up: questions not answered count as wrong.
exam-passed = Passed: { $score } of { $total } right (pass mark { $percent }%), in { $used } of { $limit }.
exam-failed = Not passed: { $score } of { $total } right (pass mark { $percent }%), in { $used } of { $limit }.
exam-explained = Every question, explained:
exam-unanswered = Not answered. The right answer and why:
exam-no-questions = The exam "{ $id }" draws from quizzes this course does not have; it has no questions to ask.
check-exam-stray-file = only .toml files belong in exams/; this one is ignored.
check-exam-duplicate = a second exam with the id "{ $id }"; give each exam its own id.
check-exam-no-quizzes = the exam names no quizzes: add from = ["QUIZ-ID", ...] to draw its questions from.
check-exam-missing = the exam has no { $key }; add it (see docs/review.md).
check-exam-range = { $key } must be between { $min } and { $max }.
report-missed = Missed most, as spaced review counts them
report-missed-count = missed by { $learners ->
        [one] one learner
       *[other] { $learners } learners
    }, { $misses ->
        [one] once
       *[other] { $misses } times
    }; due for review for { $due } now
progress-review-due = Due for review now: { $count } (rocm-learn review)
progress-exam-passed = Exam { $id }: passed, { $score } of { $total } right, in { $used } of { $limit } ({ $date })
progress-exam-failed = Exam { $id }: not passed, { $score } of { $total } right, in { $used } of { $limit } ({ $date })
