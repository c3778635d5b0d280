# 실습 화면: 터미널 아래의 상태 줄, 실습 설명 패널, 스크립트 실행.

labui-step = { $n }/{ $total }단계:
labui-not-yet = 아직 완료되지 않았습니다. F4를 누르면 실습 설명과 전체 체크리스트가, F2를 누르면 힌트가 나옵니다.
labui-key-briefing = 설명
labui-key-close = 닫기
labui-panel-title = 실습 설명과 체크리스트
labui-solution-ask = 풀이를 표시할까요? 직접 풀어 보고 싶다면 먼저 힌트(F2)를 확인해 보세요.
labui-too-small = 이 실습에는 { $w }x{ $h } 이상의 창이 필요합니다. 터미널 창을 더 크게 하세요.
labui-line-timeout = { $n }번째 줄이 { $secs }초가 지나도 끝나지 않아 다음 줄을 입력합니다.
labui-no-prompt = 로그인 후 { $secs }초가 지나도 프롬프트가 나오지 않아 스크립트를 그대로 입력합니다.
cli-line-timeout = 스크립트(또는 --plain 입력) 한 줄의 최대 실행 시간(초, 기본값 60). 출력이 없더라도 셸이 프롬프트로 돌아올 때까지 줄마다 기다립니다. 터미널 입력을 기다리는 프로그램(apt의 [Y/n] 등)에만 다음 줄을 더 일찍 넘깁니다.
labui-key-next = 다음
labui-key-way = 진행 방식
labui-way-guided = 안내형: 체크리스트가 각 단계를 알려 줍니다.
labui-way-challenge = 도전형: 목표는 달성했을 때 체크리스트에 나타납니다. 힌트를 몇 번 썼는지는 기록됩니다.
labui-way-switch = { $way } 첫 명령을 입력하기 전이라면 F7로 진행 방식을 바꿀 수 있습니다.
labui-goals = 달성한 목표: { $done }/{ $total }
labui-goals-hidden = 찾아야 할 목표가 { $n }개 더 있습니다.
labui-hints-used = 사용한 힌트: { $n }
labui-challenge-not-yet = 무엇이 문제인지 찾아서 고치세요. F4: 브리핑과 달성한 목표, F2: 힌트(횟수 기록).
labui-learned = 배운 것: { $text }
labui-next = F6을 누르면 다음으로 넘어갑니다: { $title }
