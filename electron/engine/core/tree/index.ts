/**
 * The memory tree (SafeHarbor): structure, insertion by information gain, retrieval.
 */
export { MemoryTree, informationGain, similarityEntropy, dot, type LeafMember, type TreeNode, type InsertOptions, type InsertUndo, type RetrievedLeaf, type TreeEventDraft } from './memory-tree.js';
export { safeHarborToTree, safeHarborSchema, type SafeHarborFile } from './safeharbor.js';
