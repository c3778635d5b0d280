# 여러 릴리스 랩에서 단계가 아직 끝나지 않은 이유(update-alternatives와 /opt/rocm).
alt-why-points-elsewhere = /opt/rocm은 /opt/rocm-{ $release }가 아니라 { $now }(으)로 이어집니다. alternatives 체계에서 { $release }를 선택하세요: sudo update-alternatives --config rocm (또는 --set rocm /opt/rocm-{ $release })
alt-why-link-bypassed = /opt/rocm이 /etc/alternatives/rocm을 거치지 않는 별도의 링크({ $target })로 바뀌었습니다. 이대로면 다음 ROCm 패키지 업데이트 때 관리되는 링크로 되돌아갑니다. sudo update-alternatives --set rocm /opt/rocm-{ $release }를 실행하면 링크도 원래대로 복구됩니다.
alt-why-no-group = rocm alternative가 삭제되어(/var/lib/dpkg/alternatives/rocm이 없음) /opt/rocm이 더 이상 관리되지 않습니다. 랩을 초기화하고, 그룹을 지우는 대신 update-alternatives로 전환하세요.
alt-why-not-registered = /opt/rocm-{ $release }가 rocm alternative의 선택지에서 빠졌습니다(선택지는 update-alternatives --list rocm으로 볼 수 있습니다). 이대로면 다음 업데이트 때 링크가 바뀝니다. sudo update-alternatives --install /opt/rocm rocm /opt/rocm-{ $release } 1로 다시 등록한 뒤 --set으로 선택하세요.
alt-why-auto-moves-back = 지금 /opt/rocm은 { $release }(으)로 이어지지만 rocm alternative가 아직 자동 모드입니다. 다음 ROCm 업데이트 때 우선순위가 가장 높은 { $best }(으)로 되돌아갑니다. sudo update-alternatives --set rocm /opt/rocm-{ $release } (또는 --config)로 선택하면 수동 모드가 되어 선택이 유지됩니다.
alt-why-tree-removed = /opt/rocm-{ $release }가 삭제되었지만 이 머신의 다른 사용자는 아직 ROCm { $release }가 필요합니다. 랩을 초기화하세요. 기본 릴리스를 바꾸는 데 릴리스를 지울 필요는 없습니다.
alt-why-login-via-rocm = 새 로그인에서는 { $command }이(가) { $dir }에서 실행되고, 이는 ROCm { $have }입니다. /opt/rocm이 아직 그쪽을 가리킵니다. update-alternatives로 /opt/rocm을 { $release }(으)로 바꾼 뒤 다시 로그인하세요.
alt-why-login-proof = 새 로그인이라면 ROCm { $release }의 hipcc가 실행됩니다. 여러분의 로그인에서 hipcc --version을 실행해 확인하세요(로그인 파일을 바꿨다면 먼저 다시 로그인하세요).
alt-why-login-proof-old = 이 로그인의 hipcc --version은 { $release }가 아니라 ROCm { $have }라고 표시했습니다. 이 로그인은 변경 전에 시작되었습니다. 다시 로그인한 뒤(exit) hipcc --version을 실행하세요.
alt-why-login-pinned = 새 로그인에서는 { $command }이(가) { $dir }에서 실행되고, 이는 { $release }가 아니라 ROCm { $have }입니다. PATH 앞쪽에 릴리스를 직접 지정한 항목이 있습니다. 설정된 곳(~/.bashrc, ~/.profile, /etc/profile.d/, /etc/environment)을 찾아 지우거나 /opt/rocm/bin을 가리키도록 바꾸세요.
