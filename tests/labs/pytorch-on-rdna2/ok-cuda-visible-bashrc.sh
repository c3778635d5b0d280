cat >> ~/.bashrc <<'RC'
export CUDA_VISIBLE_DEVICES=1
export HSA_OVERRIDE_GFX_VERSION=10.3.0
RC
