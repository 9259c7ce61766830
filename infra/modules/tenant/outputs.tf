output "mcp_url" {
  description = "MCP endpoint of the tenant (function URL + mcp); clients send a bearer token."
  value       = "${trimsuffix(aws_lambda_function_url.this.function_url, "/")}/mcp"
}

output "function_url" {
  description = "Base HTTPS URL of the gateway function."
  value       = aws_lambda_function_url.this.function_url
}

output "bucket_name" {
  description = "Bucket holding the tenant's tables (tables/) and cold tier (cold/)."
  value       = aws_s3_bucket.this.id
}

output "store_queue_url" {
  description = "URL of the single-writer store queue."
  value       = aws_sqs_queue.this["store"].url
}

output "reflect_queue_url" {
  description = "URL of the reflect queue."
  value       = aws_sqs_queue.this["reflect"].url
}

output "store_dlq_url" {
  description = "URL of the store queue's dead-letter queue."
  value       = aws_sqs_queue.dlq["store"].url
}

output "reflect_dlq_url" {
  description = "URL of the reflect queue's dead-letter queue."
  value       = aws_sqs_queue.dlq["reflect"].url
}

output "function_names" {
  description = "Function names by role (gateway, store, recall, reflect, compact)."
  value       = { for k, f in aws_lambda_function.this : k => f.function_name }
}

output "function_role_arns" {
  description = "IAM role ARN of each function."
  value       = { for k, r in aws_iam_role.function : k => r.arn }
}

output "secret_arn" {
  description = "ARN of the tenant secret (hindsight/<tenant>/config)."
  value       = aws_secretsmanager_secret.this.arn
}

output "schedules_dlq_url" {
  description = "URL of the queue receiving scheduled runs that failed (undeliverable events, failed reflect / compact runs)."
  value       = aws_sqs_queue.schedules_dlq.url
}

output "function_settings" {
  description = "Each function's environment as far as it is known before apply (all but the queue URLs and the secret ARN)."
  value       = local.function_settings
}
