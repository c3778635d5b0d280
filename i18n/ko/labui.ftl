# 실습 화면: 터미널 아래의 상태 줄, 실습 설명 패널, 스크립트 실행.

labui-step = { $n }/{ $total }단계:
labui-not-yet = 아직 완료되지 않았습니다. F4를 누르면 실습 설명과 전체 체크리스트가, F2를 누르면 힌트가 나옵니다.
labui-key-briefing = 설명
labui-key-close = 닫기
labui-panel-title = 실습 설명과 체크리스트
labui-solution-ask = 풀이를 표시할까요? 직접 풀어 보고 싶다면 먼저 힌트(F2)를 확인해 보세요.
labui-too-small = 이 실습에는 { $w }x{ $h } 이상의 창이 필요합니다. 터미널 창을 더 크게 하세요.
labui-line-timeout = { $n }번째 줄이 { $secs }초가 지나도 끝나지 않아 다음 줄을 입력합니다.
cli-line-timeout = 스크립트 한 줄의 최대 실행 시간(초, 기본값 60). 출력이 없더라도 셸이 프롬프트로 돌아올 때까지 줄마다 기다립니다. 터미널 입력을 기다리는 프로그램(apt의 [Y/n] 등)에만 다음 줄을 더 일찍 넘깁니다.
