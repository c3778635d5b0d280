echo 'ROCR_VISIBLE_DEVICES=1' | sudo tee -a /etc/environment
echo 'HSA_OVERRIDE_GFX_VERSION=10.3.0' | sudo tee -a /etc/environment
