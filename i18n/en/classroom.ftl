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
classroom-pack-no-manifest = the pack has no pack.toml; progress and exports will know it only by its folder's name. Add one with `id`, `version` and `title`.
classroom-pack-bad-extends = `extends` can only be "builtin" (add to the built-in course), not "{ $value }"; leave it out to replace the built-in course.
classroom-not-your-folder = The progress in { $dir } belongs to the login "{ $owner }"; it is not opened for another login so that two people's work never mixes. Set { $env } to your name (each learner gets a folder of their own) or ROCM_LEARN_DATA_DIR to a folder of yours.
classroom-submit-failed = Could not write your progress to the class folder { $dir }: { $error }. It is saved here; tell your instructor.
classroom-report-replaced = { $count ->
    [one] 1 older export of a learner was replaced by a newer one.
   *[other] { $count } older exports of learners were replaced by newer ones.
}
classroom-report-foreign = Not included: { $learner } exported another course ({ $pack }); run the report with that pack's --content.
classroom-report-items = Each learner's items
classroom-report-first-best = first { $first }/{ $total }, best { $best }/{ $total }
classroom-report-minutes = { $n } min
classroom-report-hints = { $n ->
    [one] 1 hint
   *[other] { $n } hints
}
classroom-report-solution-viewed = solution viewed
classroom-report-by-script = completed by script
classroom-report-who = who: { $names }
classroom-cli-no-labs = Skip running the labs in the sandbox (a quick pass: files and machines only)
classroom-check-machine = the lab's machine cannot be built: { $error }
classroom-check-no-group = step "{ $step }" names the group "{ $group }", which the lab's machine does not have; learners would be told to join it.
classroom-check-running = Proving lab { $lab } in the sandbox...
classroom-check-lab-failed = lab { $lab }: { $what }: { $reason }
classroom-check-step-not-done = step "{ $step }" is not done: { $why }
classroom-check-bad-header = the first line must be `# expect: STEP: reason text`.
classroom-check-bad-passed = every step passed, but a bad- script must fail.
classroom-check-bad-wrong = expected step "{ $step }" to fail with "{ $reason }", but step "{ $got }" failed with: { $why }
