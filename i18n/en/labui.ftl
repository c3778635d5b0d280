# The lab screen as a learner meets it: the strip under the terminal, the briefing panel, and
# scripted runs.

labui-step = Step { $n } of { $total }:
labui-not-yet = Not done yet. F4 shows the briefing and the whole checklist, F2 a hint.
labui-key-briefing = briefing
labui-key-close = close
labui-panel-title = Briefing and checklist
labui-solution-ask = Show the solution? If you want to work it out yourself, try a hint (F2) first.
labui-too-small = This lab needs a window of at least { $w }x{ $h }. Make the terminal bigger.
labui-line-timeout = Line { $n } was still running after { $secs } s; typing the next line anyway.
labui-no-prompt = The login showed no prompt within { $secs } s; typing the script anyway.
cli-line-timeout = How long one line of the script (or of --plain input) may run, in seconds (default 60). Each line waits until the shell is back at its prompt, however quiet the command is; only a program waiting for input from the terminal (such as apt's [Y/n]) gets the next line sooner.
labui-key-next = next item
labui-key-way = guided/challenge
labui-way-guided = Guided: the checklist names each step.
labui-way-challenge = Challenge: the checklist shows each goal once you meet it; hints are counted.
labui-way-switch = { $way } F7 switches the way before your first command.
labui-goals = Goals met: { $done } of { $total }
labui-goals-hidden = { $n ->
    [one] One more goal to find.
   *[other] { $n } more goals to find.
}
labui-hints-used = Hints used: { $n }
labui-challenge-not-yet = Find out what is wrong and fix it. F4: briefing and goals met; F2: a hint (counted).
labui-learned = Learned: { $text }
labui-next = F6 opens the next item: { $title }
