output "mcp_urls" {
  description = "MCP endpoint per tenant."
  value       = { for t, m in module.tenant : t => m.mcp_url }
}

output "secret_arns" {
  description = "Secret per tenant, to fill with token hashes and LLM keys."
  value       = { for t, m in module.tenant : t => m.secret_arn }
}
