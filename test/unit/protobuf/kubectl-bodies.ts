/** Request bodies captured from kubectl v1.32 against a throwaway loopback server (base64). */
export const KUBECTL_BODIES = {
  /** kubectl create configmap demo --from-literal=a=b */
  configMap: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEh4KFAoEZGVtbxIAGgAiACoAMgA4AEIAEgYKAWESAWIaACIA',
  /** kubectl create configmap bin --from-file=blob=<ff 00 fe> --from-literal=x=y --append-hash */
  configMapBinary: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEjUKHgoOYmluLWhoODYyZDRkOTISABoAIgAqADIAOABCABIGCgF4EgF5GgsKBGJsb2ISA/8A/hoAIgA=',
  /** kubectl create serviceaccount sa1 */
  serviceAccount: 'azhzAAoUCgJ2MRIOU2VydmljZUFjY291bnQSFQoTCgNzYTESABoAIgAqADIAOABCABoAIgA=',
  /** kubectl create configmap demo --from-literal=a=b --dry-run=server -n kube-system */
  configMapDryRun: 'azhzAAoPCgJ2MRIJQ29uZmlnTWFwEikKHwoEZGVtbxIAGgtrdWJlLXN5c3RlbSIAKgAyADgAQgASBgoBYRIBYhoAIgA=',
  /** kubectl create role pod-reader --verb=get,list --resource=configmaps --resource-name=settings */
  role: 'azhzAAokChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgRSb2xlEkgKIQoKcG9kLXJlYWRlchIAGgdkZWZhdWx0IgAqADIAOABCABIjCgNnZXQKBGxpc3QSABoKY29uZmlnbWFwcyIIc2V0dGluZ3MaACIA',
  /** kubectl create rolebinding read-settings --role=pod-reader --user=alice --group=devs --serviceaccount=ci:builder */
  roleBinding:
    'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtSb2xlQmluZGluZxLOAQokCg1yZWFkLXNldHRpbmdzEgAaB2RlZmF1bHQiACoAMgA4AEIAEioKBFVzZXISGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8aBWFsaWNlIgASKgoFR3JvdXASGXJiYWMuYXV0aG9yaXphdGlvbi5rOHMuaW8aBGRldnMiABIfCg5TZXJ2aWNlQWNjb3VudBIAGgdidWlsZGVyIgJjaRotChlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvEgRSb2xlGgpwb2QtcmVhZGVyGgAiAA==',
  /** kubectl create clusterrole metrics-reader --verb=get --resource=leases.coordination.svc.io --non-resource-url=/metrics */
  clusterRole: 'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRJVCh4KDm1ldHJpY3MtcmVhZGVyEgAaACIAKgAyADgAQgASIgoDZ2V0EhNjb29yZGluYXRpb24uc3ZjLmlvGgZsZWFzZXMSDwoDZ2V0KggvbWV0cmljcxoAIgA=',
  /** kubectl create clusterrole monitoring --aggregation-rule=rbac.example.com/aggregate-to-monitoring=true */
  clusterRoleAggregated: 'azhzAAorChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEgtDbHVzdGVyUm9sZRJSChoKCm1vbml0b3JpbmcSABoAIgAqADIAOABCABo0CjIKMAoocmJhYy5leGFtcGxlLmNvbS9hZ2dyZWdhdGUtdG8tbW9uaXRvcmluZxIEdHJ1ZRoAIgA=',
  /** kubectl create clusterrolebinding read-metrics --clusterrole=metrics-reader --user=bob --serviceaccount=monitoring:prometheus */
  clusterRoleBinding:
    'azhzAAoyChxyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvL3YxEhJDbHVzdGVyUm9sZUJpbmRpbmcSrgEKHAoMcmVhZC1tZXRyaWNzEgAaACIAKgAyADgAQgASKAoEVXNlchIZcmJhYy5hdXRob3JpemF0aW9uLms4cy5pbxoDYm9iIgASKgoOU2VydmljZUFjY291bnQSABoKcHJvbWV0aGV1cyIKbW9uaXRvcmluZxo4ChlyYmFjLmF1dGhvcml6YXRpb24uazhzLmlvEgtDbHVzdGVyUm9sZRoObWV0cmljcy1yZWFkZXIaACIA',
  /** kubectl create namespace demo-ns */
  namespace: 'azhzAAoPCgJ2MRIJTmFtZXNwYWNlEh8KFwoHZGVtby1ucxIAGgAiACoAMgA4AEIAEgAaAgoAGgAiAA==',
};
