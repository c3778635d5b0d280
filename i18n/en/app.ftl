# The full-screen app.

app-too-small = Make the terminal larger to use rocm-learn.
home-title = Home
home-tagline = Learn to run AMD's ROCm GPU stack: see it as a building, read the lessons, test yourself, and fix real deployment failures in the labs.
home-continue = Continue
home-stack = Stack
home-stack-desc = The ROCm stack as a five-floor building
home-lessons = Lessons
home-lessons-desc = { $count ->
    [one] 1 lesson
   *[other] { $count } lessons
}, { $read } read
home-quizzes = Quizzes
home-quizzes-desc = { $count ->
    [one] 1 quiz
   *[other] { $count } quizzes
}, { $questions } questions
home-labs = Labs
home-labs-desc = Fix real deployment failures in a sandboxed shell
home-glossary = Glossary
home-glossary-desc = { $count } terms, searchable
home-progress = Progress
home-progress-desc = What you have done; reset items

key-move = move
key-open = open
key-quit = quit
key-back = back
key-help = help
key-lang = language
key-ascii = switch box drawing / ASCII
key-read = read
key-scroll = scroll
key-page = page down
key-next-link = next link
key-follow = open link
key-toc = contents
key-start = start
key-retry-wrong = retry wrong ones
key-choose = choose
key-confirm = confirm
key-continue = continue
key-again = take it again
key-search = type to search
key-definition = definition
key-floor = floor
key-elevator = ride the elevator
key-elevator-off = leave the elevator
key-step = step
key-reset-one = reset item
key-reset-all = reset all

help-title = Keys
popup-close = Press any key to close.
term-title = Glossary
notice-title = Note
confirm-title = Are you sure?
confirm-keys = y: yes   any other key: no
toc-title = Contents

lesson-status-new = not started
lesson-status-started = started
lesson-status-read = read
reader-next-quiz = Next: quiz
reader-next-lab = Next: lab
reader-web-link = This link leads outside the course: { $url }

quiz-count = { $count ->
    [one] 1 question
   *[other] { $count } questions
}
quiz-best = best { $best } of { $total }, { $attempts ->
    [one] 1 attempt
   *[other] { $attempts } attempts
}
quiz-wrong-to-retry = { $count ->
    [one] 1 question
   *[other] { $count } questions
} to retry: press r.
quiz-next = Enter: next question
quiz-see-results = Enter: see your results
quiz-results-keys-wrong = r: retry the { $count ->
    [one] one
   *[other] { $count }
} you got wrong   a: take it again   q: back

glossary-search = Search:
glossary-no-match = No term matches.
glossary-in-lessons = Used in:
floor-lessons = Lessons about this floor

building-keys = Enter: components and lessons   e: follow a request down the elevator
elevator-step = Step { $n } of { $total } · { $floor }F
elevator-keys = → next stop   ← back   e: leave the elevator
elevator-done = Back on the top floor with the result. e: leave the elevator


progress-questions-right = Right answers
progress-reset-one = Forget your progress on "{ $title }"?
progress-reset-all = Forget all your progress: lessons, quizzes and labs? This cannot be undone.

matrix-title = Support matrix
home-matrix-desc = Which GPU, OS and ROCm release go together
matrix-empty = This course has no support matrix.
key-next-gpu = next GPU
key-matrix = support matrix
matrix-cell = { $gpu } on { $os } with ROCm { $release }:{" "}
matrix-supported = Supported
matrix-deprecated = Deprecated
matrix-unsupported = Unsupported
matrix-supported-means = Built and tested for this combination: drivers, runtime and the prebuilt libraries all carry code for this GPU.
matrix-deprecated-means = Still works, but gets no new features, and a future release will remove support. Plan the move now.
matrix-unsupported-means = The HIP runtime might still run applications, but the prebuilt ROCm libraries are not supported here and can fail at run time, for example with "invalid device function" when no kernel exists for this GPU.
matrix-unlisted = This release does not list the GPU at all.
matrix-wrong-os = This release supports the GPU, but not on this operating system.
