# Lessons and quizzes in line mode; words shared with the full-screen app.

lesson-fallback = (This lesson is not translated yet; showing the { $lang } text.)
lesson-terms-heading = Terms in this lesson
lesson-note = Note:
lesson-next-quiz = Next: test yourself with `rocm-learn quiz { $id }`
lesson-next-lab = Next: try it hands-on with `rocm-learn lab { $id }`
link-lesson = lesson: rocm-learn lesson { $id }
link-quiz = quiz: rocm-learn quiz { $id }
link-lab = lab: rocm-learn lab { $id }

category-application = Application
category-architecture = Architecture
category-operating-system = Operating system
category-language = Language
category-license = License
category-device = Device

quiz-plain-intro = Quiz: { $title } ({ $count ->
    [one] 1 question
   *[other] { $count } questions
}). Answer with the option's number or letter; end input (Ctrl-D) to stop, and your answers so far are kept.
quiz-question-of = Question { $n } of { $total }
quiz-answer-prompt = Your answer (1-{ $last } or a-{ $lastletter }):
quiz-answer-empty = Type the number or letter of an option, then press Enter.
quiz-answer-out-of-range = "{ $input }" is not one of the options: type a number from 1 to { $last } or a letter from a to { $lastletter }.
quiz-answer-unreadable = "{ $input }" is not an answer: type a number from 1 to { $last } or a letter from a to { $lastletter }.
quiz-right = Correct: { $n }) { $option }
quiz-wrong = Not quite. You chose { $n }) { $option }
quiz-right-was = The right answer is { $n }) { $option }
quiz-score = Score: { $score } of { $total }
quiz-stopped = Stopped after { $answered } of { $total } questions; { $score } right so far. Your answers are saved.
quiz-stopped-none = Stopped before the first answer; nothing was recorded.
quiz-retry-hint = { $count ->
    [one] One answer was wrong.
   *[other] { $count } answers were wrong.
} To practise just { $count ->
    [one] that one
   *[other] those
}: rocm-learn quiz { $id } --retry-wrong
quiz-retry-intro = Asking again the { $count ->
    [one] question
   *[other] { $count } questions
} you answered wrong last time.
quiz-retry-none-taken = You have not taken this quiz yet, so there is nothing to retry: here is the whole quiz.
quiz-retry-nothing = Every answer you gave last time was right; nothing to retry.
