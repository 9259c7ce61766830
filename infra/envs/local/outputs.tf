output "mcp_urls" {
  description = "MCP endpoint per tenant."
  value       = { for t, m in module.tenant : t => m.mcp_url }
}

output "bucket_names" {
  description = "Bucket per tenant."
  value       = { for t, m in module.tenant : t => m.bucket_name }
}

output "store_queue_urls" {
  description = "Store (single-writer) queue URL per tenant."
  value       = { for t, m in module.tenant : t => m.store_queue_url }
}

output "reflect_queue_urls" {
  description = "Reflect queue URL per tenant."
  value       = { for t, m in module.tenant : t => m.reflect_queue_url }
}

output "function_names" {
  description = "Function names per tenant."
  value       = { for t, m in module.tenant : t => m.function_names }
}
