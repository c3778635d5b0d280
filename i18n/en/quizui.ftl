# Quizzes that explain every option, the results review, and screen chrome (scroll signs).

quiz-other-option = { $n }) { $option }
quiz-others-heading = The other options:
quiz-resumed = Picking up where you left off: question { $n } of { $total }.
quiz-review-heading = Review
quiz-review-unanswered = Not answered.
quiz-results-perfect = All right! a: take it again
more-below = more below
more-above = more above
key-review = scroll the review
cli-seed = Shuffle the options with this seed, for a run you can repeat (0 keeps the order they were written in)
key-page-up = page up
key-top-bottom = start / end
quiz-status-new = not taken yet
lab-status-new = not started
matrix-legend-unlisted = GPU not listed
key-go = go there
key-close = close
