//! Integration tests of LLM planning with a scripted model (no network).

#[path = "it/llm_modes.rs"]
mod llm_modes;

#[path = "it/adversarial.rs"]
mod adversarial;
