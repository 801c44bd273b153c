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
};
