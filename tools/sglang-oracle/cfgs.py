"""HF config.json fields of the DSA models the oracle resolves (public configs, trimmed)."""
DEEPSEEK_V32 = dict(
    architectures=["DeepseekV3ForCausalLM"],  # SGLang rewrites DeepseekV32ForCausalLM to this when transformers lacks deepseek_v32
    model_type="deepseek_v3", hidden_size=7168, intermediate_size=18432, moe_intermediate_size=2048,
    num_hidden_layers=61, num_attention_heads=128, num_key_value_heads=128, n_routed_experts=256,
    n_shared_experts=1, num_experts_per_tok=8, kv_lora_rank=512, q_lora_rank=1536, qk_nope_head_dim=128,
    qk_rope_head_dim=64, v_head_dim=128, max_position_embeddings=163840, vocab_size=129280,
    num_nextn_predict_layers=1, index_topk=2048, index_head_dim=128, index_n_heads=64,
    rope_theta=10000, rope_scaling={"type": "yarn", "factor": 40, "original_max_position_embeddings": 4096,
                                    "beta_fast": 32, "beta_slow": 1, "mscale": 1.0, "mscale_all_dim": 1.0},
    torch_dtype="bfloat16", first_k_dense_replace=3, tie_word_embeddings=False, rms_norm_eps=1e-6,
    hidden_act="silu", topk_method="noaux_tc", n_group=8, topk_group=4, routed_scaling_factor=2.5,
    quantization_config={"activation_scheme": "dynamic", "fmt": "e4m3", "quant_method": "fp8", "weight_block_size": [128, 128]},
)
GLM5 = dict(DEEPSEEK_V32, architectures=["GlmMoeDsaForCausalLM"], model_type="glm_moe_dsa", num_hidden_layers=78)
DEEPSEEK_V3 = {k: v for k, v in DEEPSEEK_V32.items() if not k.startswith("index_")}
