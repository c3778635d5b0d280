# Classroom: qualified item ids, the progress table, packs, exports, the class report.

cli-arguments = Arguments
classroom-kind-lesson = lesson
classroom-kind-quiz = quiz
classroom-kind-lab = lab
classroom-col-kind = Kind
classroom-col-id = Id
classroom-col-status = Status
classroom-col-score = Score
classroom-col-title = Title
classroom-bad-kind = "{ $spec }": "{ $kind }" is not a kind of item; write lesson:ID, quiz:ID or lab:ID.
classroom-unknown-item = There is no item "{ $spec }". Available: { $known }
classroom-ambiguous-item = "{ $id }" names more than one item: { $choices }. Write the one you mean.
